/// Base64 for proto3 JSON bytes fields: writes standard base64 with padding; reads standard and
/// URL-safe alphabets, with or without padding.
enum Base64 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// 6-bit values for both alphabets; 0xFF for anything else.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    static func encode<Sink: ByteSink>(_ bytes: [UInt8], into out: inout Sink) {
        bytes.withUnsafeBufferPointer { input in encode(input, into: &out) }
    }

    static func encode<Sink: ByteSink>(_ input: UnsafeBufferPointer<UInt8>, into out: inout Sink) {
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
        var count = input.count
        // Padding: at most two '=' at the end, and then the total must be a multiple of 4.
        var padding = 0
        while padding < 2, count > 0, input[count - 1] == UInt8(ascii: "=") {
            count -= 1
            padding += 1
        }
        if padding > 0, (count + padding) % 4 != 0 { return nil }
        if count % 4 == 1 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(count / 4 * 3 + 2)
        var accumulator: UInt32 = 0
        var bits = 0
        for index in 0..<count {
            let value = values[Int(input[index])]
            if value == 0xFF { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }
}
