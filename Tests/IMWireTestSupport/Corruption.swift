/// Random changes to an encoding: bit flips, overwritten, inserted, deleted and duplicated bytes,
/// inserted tags and lengths, truncation, invalid UTF-8 — and changes a conforming parser must accept:
/// top-level fields reordered or repeated, varints made over-long.
package enum Corruption {
    package static func apply(to bytes: [UInt8], using rng: inout TestRandom) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<(rng.chance(0.6) ? 1 : rng.int(2...4)) {
            let position = rng.int(0...bytes.count)
            let fields = TestWire.fields(bytes[...]) ?? []
            switch rng.int(0...11) {
            case 9 where fields.count >= 2:
                // Swap two top-level fields.
                let (i, j) = (rng.int(0...fields.count - 2), rng.int(1...fields.count - 1))
                let (first, second) = (fields[min(i, j)], fields[max(i, j)])
                guard first != second else { continue }
                bytes = Array(bytes[..<first.start]) + bytes[second.start..<second.end] + bytes[first.end..<second.start]
                    + bytes[first.start..<first.end] + bytes[second.end...]
            case 10 where !fields.isEmpty:
                // Repeat a top-level field at the end (last one wins / repeated appends / messages merge).
                let field = rng.pick(fields)
                bytes += bytes[field.start..<field.end]
            case 11 where !fields.isEmpty:
                // Re-encode a top-level varint value with redundant continuation bytes.
                let field = rng.pick(fields)
                var cursor = field.valueStart
                guard field.wireType == TestWire.varint, let value = TestWire.readVarint(bytes[...], &cursor) else { continue }
                let overlong = TestWire.overlongVarint(value, extraBytes: rng.int(1...9))
                bytes.replaceSubrange(field.valueStart..<field.end, with: overlong)
            case 0 where position < bytes.count: bytes[position] ^= UInt8(1) << UInt8(rng.int(0...7))
            case 1 where position < bytes.count: bytes[position] = UInt8(truncatingIfNeeded: rng.next())
            case 2: bytes.insert(contentsOf: rng.bytes(count: rng.int(1...3)), at: position)
            case 3 where position < bytes.count: bytes.removeSubrange(position..<min(bytes.count, position + rng.int(1...3)))
            case 4 where position < bytes.count:
                let end = min(bytes.count, position + rng.int(1...16))
                bytes.insert(contentsOf: Array(bytes[position..<end]), at: position)
            case 5:
                // A plausible tag: a schema field number (or 0 / huge) with any wire type, including 6 and 7.
                let number = rng.pick([0, 1, 2, 3, 7, 9, 10, 12, 14, 19, 100, TestWire.maxFieldNumber, TestWire.maxFieldNumber + 1])
                bytes.insert(contentsOf: TestWire.varint(UInt64(number) << 3 | UInt64(rng.int(0...7))), at: position)
            case 6:
                // A length or varint that is huge, over-long, or past 10 bytes.
                let choices: [[UInt8]] = [
                    TestWire.varint(UInt64.max), TestWire.varint(UInt64(Int32.max)), [0xFF, 0xFF, 0xFF, 0xFF, 0x0F],
                    [UInt8](repeating: 0x80, count: 10) + [0x00], [UInt8](repeating: 0xFF, count: 11), [0x80, 0x00],
                ]
                bytes.insert(contentsOf: rng.pick(choices), at: position)
            case 7 where position < bytes.count: bytes.removeSubrange(position...)
            case 8:
                // Invalid UTF-8 inside a string-looking spot.
                bytes.insert(contentsOf: rng.pick([[0xC3], [0xED, 0xA0, 0x80], [0xFF], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0x80]]), at: position)
            default: continue
            }
        }
        return bytes
    }
}
