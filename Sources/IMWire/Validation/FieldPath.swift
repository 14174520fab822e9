/// The field path of the value being validated, e.g. `elems[0].merger.messages[12].elems[0]`,
/// kept as UTF-8 bytes with push/pop marks so a walk builds no strings until it reports a violation.
struct FieldPath {
    private var bytes: [UInt8] = []

    /// Appends `.field` (or `field` at the root), and `[index]` when given. Returns the mark to pop
    /// back to.
    mutating func push(_ field: String, index: Int? = nil) -> Int {
        let mark = bytes.count
        Self.append(field, index: index, to: &bytes)
        return mark
    }

    /// Returns to the path as it was when `mark` was returned by ``push(_:index:)``.
    mutating func pop(to mark: Int) {
        bytes.removeSubrange(mark...)
    }

    /// The current path with `leaf` (and `[index]`) appended; the current path when `leaf` is empty.
    func rendered(_ leaf: String = "", index: Int? = nil) -> String {
        guard !leaf.isEmpty else { return String(decoding: bytes, as: UTF8.self) }
        var copy = bytes
        Self.append(leaf, index: index, to: &copy)
        return String(decoding: copy, as: UTF8.self)
    }

    /// The decimal digits of `value` (not negative), without making a `String`.
    private static func appendDigits(of value: Int, to target: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var rest = UInt64(max(0, value))
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest != 0
            target.append(contentsOf: buffer[(24 - count)...])
        }
    }

    // Static: as an instance method its `self` would hold a second reference to `bytes` while
    // `bytes` is appended to, so every push would copy the whole path (quadratic in the depth).
    private static func append(_ field: String, index: Int?, to target: inout [UInt8]) {
        if !target.isEmpty { target.append(UInt8(ascii: ".")) }
        target.append(contentsOf: field.utf8)
        if let index {
            target.append(UInt8(ascii: "["))
            appendDigits(of: index, to: &target)
            target.append(UInt8(ascii: "]"))
        }
    }
}
