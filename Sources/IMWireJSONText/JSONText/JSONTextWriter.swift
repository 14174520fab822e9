import IMWireCore

/// JSON text written forward into one byte sink: the one place that knows JSON's string escaping,
/// number forms, separators and layout. The encoders on top of it — proto3 JSON (``JSONWriter``),
/// tim-rest (`TIMRESTEncoder`), TUIKit custom payloads (`TUIKitPayloadWriter`) and the webhook
/// response (IMWireWebhooks' `CallbackResponse`) — decide only which keys, in which order, and how
/// a field maps to a value.
///
/// The caller writes a well-formed sequence: ``key(_:)`` before each value of an object,
/// ``element()`` before each value of an array, one value after each; the writer puts in the
/// commas and, when pretty, the line breaks.
///
/// - Layout: compact, or pretty — each member and element on a line of its own, indented by two
///   spaces per level, a space after each `:`, an empty object or array as `{}` / `[]`.
/// - Strings: only `"`, `\` and U+0000–U+001F are escaped (`\b \f \n \r \t` short, the rest
///   `\u00XX` in lowercase hex); everything else is written as its raw UTF-8. This is the canonical
///   escaping of proto3 JSON (as protobuf's own serializers write it), and tim-rest and TUIKit
///   payloads use it too.
/// - Numbers: integers in plain decimal, finite doubles in Swift's shortest round-trip form
///   (`180.0`, `1e-07`, `1.7976931348623157e+308`: the notation of Python's `repr`).
///
/// The writer is also a ``ByteSink`` of raw bytes, for a format's own pieces of text that need no
/// escaping (pre-encoded keys, base64, enum names).
@usableFromInline package struct JSONTextWriter<Sink: ByteSink>: ByteSink {
    /// The text written so far.
    @usableFromInline package var output: Sink
    /// Whether the text is laid out on indented lines.
    @usableFromInline package let pretty: Bool
    /// Whether the innermost open object or array already has a member or element (so the next
    /// needs a comma). Closing a container sets it: a container is always an item of the one
    /// around it, so no stack of these is needed.
    @usableFromInline var hasItem = false
    /// How many objects and arrays are open: the indentation of the next line when pretty.
    @usableFromInline var level = 0

    @inlinable
    package init(into output: Sink, pretty: Bool = false) {
        self.output = output
        self.pretty = pretty
    }

    // MARK: - Raw bytes

    @inline(__always)
    @inlinable
    package mutating func append(_ byte: UInt8) {
        output.append(byte)
    }

    @inline(__always)
    @inlinable
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        output.append(bytes)
    }

    // MARK: - Layout

    @inlinable
    package mutating func beginObject() {
        open(UInt8(ascii: "{"))
    }

    @inlinable
    package mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    @inlinable
    package mutating func beginArray() {
        open(UInt8(ascii: "["))
    }

    @inlinable
    package mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    @inline(__always)
    @inlinable
    mutating func open(_ bracket: UInt8) {
        output.append(bracket)
        level &+= 1
        hasItem = false
    }

    @inline(__always)
    @inlinable
    mutating func close(_ bracket: UInt8) {
        level &-= 1
        if pretty, hasItem { newline() }
        output.append(bracket)
        hasItem = true
    }

    /// Starts the next element of the open array: a comma after the first, and its line.
    @inline(__always)
    @inlinable
    package mutating func element() {
        separate()
    }

    /// Starts the next member of the open object with `key`, escaped: `"key":`.
    @inlinable
    package mutating func key(_ key: String) {
        separate()
        string(key)
        output.append(UInt8(ascii: ":"))
        if pretty { output.append(UInt8(ascii: " ")) }
    }

    /// Starts the next member of the open object with a key already in JSON form — the quoted,
    /// escaped name and its `:` (`"msgId":`), as a schema keeps it.
    @inline(__always)
    @inlinable
    package mutating func key(encoded: UnsafeBufferPointer<UInt8>) {
        separate()
        output.append(encoded)
        if pretty { output.append(UInt8(ascii: " ")) }
    }

    @inline(__always)
    @inlinable
    mutating func separate() {
        if hasItem { output.append(UInt8(ascii: ",")) }
        hasItem = true
        if pretty { newline() }
    }

    @inlinable
    mutating func newline() {
        output.append(UInt8(ascii: "\n"))
        for _ in 0..<level {
            output.append(UInt8(ascii: " "))
            output.append(UInt8(ascii: " "))
        }
    }

    /// Continues the open object with the members of `object`, a complete compact JSON object
    /// (`{"a":1,"b":2}`) written by another writer; an empty one adds nothing. Compact text only:
    /// the members keep their own layout.
    @inlinable
    package mutating func members(ofEncodedObject object: [UInt8]) {
        // [unsafe: json-text-writer] `object.count > 2`, so `1..<count - 1` is inside it.
        precondition(!pretty, "members(ofEncodedObject:) splices compact text")
        guard object.count > 2 else { return }
        separate()
        object.withUnsafeBufferPointer { append(UnsafeBufferPointer(rebasing: $0[1..<($0.count - 1)])) }
    }

    // MARK: - Values

    @inlinable
    package mutating func null() {
        output.append("null")
    }

    @inline(__always)
    @inlinable
    package mutating func bool(_ value: Bool) {
        output.append(value ? "true" : "false")
    }

    /// `string` as a JSON string literal.
    @inlinable
    package mutating func string(_ string: String) {
        var string = string
        string.withUTF8 { self.string(utf8: $0) }
    }

    /// Valid UTF-8 `bytes` as a JSON string literal.
    @inlinable
    package mutating func string(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        // [unsafe: json-text-writer] eight-byte loads after `count - index >= 8` (so the buffer is not empty
        // and has a base address); runs `runStart..<escaped` with `escaped < count`.
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        let count = bytes.count
        while index < count {
            // Eight bytes at a time while none needs escaping (a quote, a backslash, a control).
            while count - index >= 8 {
                let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                if JSONEscapeScan.mayNeedEscaping(word) { break }
                index += 8
            }
            guard index < count else { break }
            let byte = bytes[index]
            index += 1
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            let escaped = index - 1
            output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<escaped]))
            runStart = escaped + 1
            output.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
            case 0x08: output.append(UInt8(ascii: "b"))
            case 0x0C: output.append(UInt8(ascii: "f"))
            case 0x0A: output.append(UInt8(ascii: "n"))
            case 0x0D: output.append(UInt8(ascii: "r"))
            case 0x09: output.append(UInt8(ascii: "t"))
            default:
                output.append("u00")
                output.append(JSONTextDigits.hex[Int(byte >> 4)])
                output.append(JSONTextDigits.hex[Int(byte & 15)])
            }
        }
        if runStart < count { output.append(UnsafeBufferPointer(rebasing: bytes[runStart...])) }
        output.append(UInt8(ascii: "\""))
    }

    /// `value` in decimal.
    @inlinable
    package mutating func integer(_ value: UInt64) {
        // [unsafe: json-text-writer] a `UInt64` has at most 20 decimal digits, written from byte 23 down into
        // 24 bytes; `pairs` has 200 entries and `pair + 1 <= 199`.
        // Digits straight into the output: `description` would build a String per number.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            // Two digits at a time from a table of "00"..."99", then the last one if odd.
            JSONTextDigits.pairs.withUnsafeBufferPointer { pairs in
                while rest >= 100 {
                    let pair = Int(rest % 100) &* 2
                    rest /= 100
                    buffer[23 - count] = pairs[pair &+ 1]
                    buffer[22 - count] = pairs[pair]
                    count &+= 2
                }
                if rest >= 10 {
                    let pair = Int(rest) &* 2
                    buffer[23 - count] = pairs[pair &+ 1]
                    buffer[22 - count] = pairs[pair]
                    count &+= 2
                } else {
                    buffer[23 - count] = UInt8(truncatingIfNeeded: rest) &+ UInt8(ascii: "0")
                    count &+= 1
                }
            }
            output.append(UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]).assumingMemoryBound(to: UInt8.self))
        }
    }

    /// `value` in decimal, `-` first when negative.
    @inlinable
    package mutating func integer(_ value: Int64) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        integer(value.magnitude)
    }

    /// `value` in decimal inside quotes (`"18446744073709551615"`), for formats that carry 64-bit
    /// integers as strings so that readers with 53-bit doubles keep them exact.
    @inlinable
    package mutating func quotedInteger(_ value: UInt64) {
        output.append(UInt8(ascii: "\""))
        integer(value)
        output.append(UInt8(ascii: "\""))
    }

    /// A finite `value` in shortest round-trip form. JSON has no NaN or infinity: a format that
    /// carries them writes its own form (proto3 JSON: `"NaN"`, `"Infinity"`, `"-Infinity"`).
    @inlinable
    package mutating func double(_ value: Double) {
        assert(value.isFinite, "JSON numbers are finite")
        // Swift's description is the shortest round-trip form, in the same notation as Python's
        // repr (180.0, 1e-07, 1.7976931348623157e+308), which the fixtures pin.
        var text = value.description
        text.withUTF8 { output.append($0) }
    }

    // MARK: - Members

    @inlinable
    package mutating func member(_ name: String, string value: String) {
        key(name)
        string(value)
    }

    @inlinable
    package mutating func member(_ name: String, number value: UInt64) {
        key(name)
        integer(value)
    }

    /// `"name": ["a", "b"]`.
    @inlinable
    package mutating func member(_ name: String, strings values: [String]) {
        key(name)
        beginArray()
        for value in values {
            element()
            string(value)
        }
        endArray()
    }
}

/// The digit tables of ``JSONTextWriter`` (a generic type cannot hold static stored properties).
@usableFromInline enum JSONTextDigits {
    /// "0123456789abcdef".
    @usableFromInline static let hex: [UInt8] = Array("0123456789abcdef".utf8)
    /// "00" "01" … "99", for writing two digits at a time.
    @usableFromInline static let pairs: [UInt8] = (0..<100).flatMap { [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)] }
}
