import IMWireCore
import IMWireJSONText

/// Base64 for proto3 JSON bytes fields: writes standard base64 with padding; reads standard and
/// URL-safe alphabets, with or without padding.
@usableFromInline package enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// 6-bit values for both alphabets; 0xFF for anything else.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    static func encode<Sink: ByteSink>(_ bytes: [UInt8], into out: inout Sink) {
        bytes.withUnsafeBufferPointer { input in encode(input, into: &out) }
    }

    static func encode<Sink: ByteSink>(_ input: UnsafeBufferPointer<UInt8>, into out: inout Sink) {
        // [unsafe: base64] three input bytes after `index + 3 <= count`, the rest after `rest == 1` or `2`;
        // table indices are six-bit values (below 64, the alphabet's length).
        do {
            alphabet.withUnsafeBufferPointer { table in
                var index = 0
                let count = input.count
                while index + 3 <= count {
                    let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                    out.append(table[Int(value >> 18)])
                    out.append(table[Int(value >> 12 & 63)])
                    out.append(table[Int(value >> 6 & 63)])
                    out.append(table[Int(value & 63)])
                    index += 3
                }
                let rest = count - index
                if rest == 1 {
                    let value = UInt32(input[index]) << 16
                    out.append(table[Int(value >> 18)])
                    out.append(table[Int(value >> 12 & 63)])
                    out.append(UInt8(ascii: "="))
                    out.append(UInt8(ascii: "="))
                } else if rest == 2 {
                    let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
                    out.append(table[Int(value >> 18)])
                    out.append(table[Int(value >> 12 & 63)])
                    out.append(table[Int(value >> 6 & 63)])
                    out.append(UInt8(ascii: "="))
                }
            }
        }
    }

    /// Decodes `input`; returns `nil` for a character outside both alphabets, misplaced or wrong
    /// padding, or a length no base64 text can have.
    static func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // [unsafe: base64] the array has room for ``maxDecodedCount(_:)`` bytes, what ``decode(_:into:)``
        // needs (its capacity is at least 2, so the base address is there).
        var failed = false
        let out = [UInt8](unsafeUninitializedCapacity: maxDecodedCount(input.count)) { buffer, initialized in
            guard let count = decode(input, into: buffer.baseAddress!) else {
                failed = true
                initialized = 0
                return
            }
            initialized = count
        }
        return failed ? nil : out
    }

    /// At most how many bytes `count` base64 characters decode to: room ``decode(_:into:)`` needs.
    @inline(__always)
    static func maxDecodedCount(_ count: Int) -> Int { count / 4 * 3 + 2 }

    /// Decodes `input` to `out` (room for ``maxDecodedCount(_:)`` bytes) and returns how many bytes
    /// it wrote; `nil` as ``decode(_:)``. Four characters at a time: one table lookup each, one
    /// check of the four (an invalid character's value has the high bit set).
    @usableFromInline package static func decode(_ input: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        // [unsafe: base64] four characters after `i + 4 <= count`, the rest below `count`; `count` characters
        // write at most `count / 4 * 3 + 2` bytes, the room the callers give; table indices are bytes (the
        // table has 256 entries).
        var count = input.count
        // Padding: at most two '=' at the end, and then the total must be a multiple of 4.
        var padding = 0
        while padding < 2, count > 0, input[count - 1] == UInt8(ascii: "=") {
            count -= 1
            padding += 1
        }
        if padding > 0, (count + padding) % 4 != 0 { return nil }
        if count % 4 == 1 { return nil }
        return values.withUnsafeBufferPointer { table -> Int? in
            let table = table.baseAddress!
            guard let input = input.baseAddress else { return 0 }
            var (i, o) = (0, 0)
            while i &+ 4 <= count {
                let a = table[Int(input[i])], b = table[Int(input[i &+ 1])]
                let c = table[Int(input[i &+ 2])], d = table[Int(input[i &+ 3])]
                if (a | b | c | d) & 0x80 != 0 { return nil }
                let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                out[o] = UInt8(truncatingIfNeeded: value >> 16)
                out[o &+ 1] = UInt8(truncatingIfNeeded: value >> 8)
                out[o &+ 2] = UInt8(truncatingIfNeeded: value)
                (i, o) = (i &+ 4, o &+ 3)
            }
            // Two or three characters left: one or two bytes (the spare low bits are dropped).
            if i < count {
                var value: UInt32 = 0
                for index in i..<count {
                    let digit = table[Int(input[index])]
                    if digit & 0x80 != 0 { return nil }
                    value = value << 6 | UInt32(digit)
                }
                if count &- i == 2 {
                    out[o] = UInt8(truncatingIfNeeded: value >> 4)
                    o &+= 1
                } else {
                    out[o] = UInt8(truncatingIfNeeded: value >> 10)
                    out[o &+ 1] = UInt8(truncatingIfNeeded: value >> 2)
                    o &+= 2
                }
            }
            return o
        }
    }
}
