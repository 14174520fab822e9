import IMWireCore
import IMWireJSONText

/// Reads tim-rest in one pass over the text, the way the proto3 JSON reader does: each object's keys
/// are matched once, as the scanner meets them, and each value is read straight into the model. No
/// tape, no per-object table of members, no path.
///
/// It is the decoder's fast path, and it answers only "this message" or "not here" (`nil`). For every
/// input it accepts, it builds the message ``TIMRESTDecoder`` builds from the tape; for every input the
/// tape decoder refuses, it refuses too (a malformed document, a wrong type, a missing key, a value out
/// of range, a limit); and it refuses a few shapes it leaves to the tape decoder: a root object that is
/// a single element, and contents deferred more than ``maxDeferrals`` deep. When it refuses,
/// ``TIMRESTDecoder`` decodes the input from the start, so that errors, their codes, offsets and paths,
/// and skipped-key reports are the tape decoder's, unchanged. A decode that audits skipped keys (a
/// report, or ``TIMRESTDecodingOptions/rejectsUnknownKeys``) goes to the tape decoder directly.
///
/// Keys may come in any order. The one value whose reading depends on a key after it is an element's
/// `MsgContent` before its `MsgType`: it is stepped over by its brackets and strings alone, and read
/// (and checked) once `MsgType` is known. A deferred content inside a deferred content is stepped over
/// once more for each level that deferred it, so at most ``maxDeferrals`` levels do (deeper, the tape
/// decoder reads the document): every byte is read a bounded number of times, and time stays linear
/// in the input.
package struct TIMRESTReader {
    var scanner: JSONScanner
    /// The deepest JSON nesting allowed: the tape decoder's (``TIMRESTDecoder/jsonDepth(forMessageDepth:)``).
    let maxJSONDepth: Int
    let maxDepth: Int
    /// Containers open around the current value.
    var jsonDepth = 0
    /// Deferred contents being read around the current value.
    var deferrals = 0
    var stackGuard = StackGuard()
    /// The bytes of the last unknown key ``plainKey(_:)`` met.
    var unknownKey = 0..<0
    let smallStrings = SmallString.isAvailable

    /// How many deferred contents may be read one inside another before the tape decoder takes over.
    package static let maxDeferrals = 3

    /// What the reader throws for a shape it leaves to the tape decoder: never seen by a caller.
    static let notHere = IMWireError.invalidValue("left to the tape decoder", offset: 0)

    /// The message `buffer` holds, or `nil` when the reader refuses it (the tape decoder then decides).
    package static func read(_ buffer: UnsafeBufferPointer<UInt8>, options: TIMRESTDecodingOptions) -> Message? {
        guard buffer.count <= options.maxInputSize, buffer.count < Int(UInt32.max) else { return nil }
        var reader = TIMRESTReader(
            scanner: JSONScanner(buffer), maxJSONDepth: TIMRESTDecoder.jsonDepth(forMessageDepth: options.maxDepth),
            maxDepth: options.maxDepth)
        return try? reader.document()
    }

    mutating func document() throws(IMWireError) -> Message {
        scanner.skipWhitespace()
        let message: Message
        switch scanner.peek() {
        case UInt8(ascii: "[")?:
            try checkDepth(1)
            var root = Message()
            root.elems = try elems(depth: 2)
            message = root
        case UInt8(ascii: "{")?:
            message = try envelope(depth: 1, isRoot: true)
        default:
            throw Self.notHere
        }
        scanner.skipWhitespace()
        guard scanner.position == scanner.count else { throw Self.notHere }
        return message
    }

    mutating func checkDepth(_ depth: Int) throws(IMWireError) {
        guard depth <= maxDepth else { throw Self.notHere }
        try stackGuard.check(depth: depth)
    }

    // MARK: - Containers and keys

    /// The members read so far of one object: which slots came (null or not), which with a value,
    /// and the unknown keys, for duplicates.
    struct Members {
        var seen: UInt32 = 0
        var present: UInt32 = 0
        var unknown: Set<[UInt8]>?
        var open = false

        subscript(slot: Int) -> Bool { present & (1 << UInt32(slot)) != 0 }
    }

    /// Opens the object at the position (anything else is refused): `false` if it is empty.
    mutating func openObject() throws(IMWireError) -> Members {
        guard scanner.peek() == UInt8(ascii: "{"), jsonDepth < maxJSONDepth else { throw Self.notHere }
        jsonDepth += 1
        var members = Members()
        members.open = try scanner.openContainer()
        if !members.open { jsonDepth -= 1 }
        return members
    }

    /// The slot of the next member of `table` with a value, the position on that value; `nil` after
    /// the object's `}`. Steps over `null` values (absent, as for the tape decoder) and unknown
    /// members (checked, as the lexer checks them), refusing duplicate keys.
    mutating func nextSlot(_ table: TIMRESTKeyTable, _ members: inout Members, first: inout Bool) throws(IMWireError) -> Int? {
        guard members.open else { return nil }
        while true {
            if first {
                first = false
            } else if try !scanner.nextMember(closing: UInt8(ascii: "}")) {
                jsonDepth -= 1
                members.open = false
                return nil
            }
            let found: Int?
            let plain = plainKey(table)
            if plain >= 0 {
                found = plain
            } else if plain == Self.unknownPlainKey {
                // [unsafe: json-scanner] ``unknownKey`` is the range of a key's bytes inside the input.
                try skipUnknown(Array(UnsafeBufferPointer(start: scanner.base + unknownKey.lowerBound, count: unknownKey.count)))
                continue
            } else {
                let (key, _) = try scanner.scanKey()
                found = scanner.withBytes(key, { table.slot(of: $0) })
                if found == nil {
                    try skipUnknown(scanner.withBytes(key) { Array($0) })
                    continue
                }
            }
            if let slot = found {
                let bit: UInt32 = 1 << UInt32(slot)
                guard members.seen & bit == 0 else { throw Self.notHere }
                members.seen |= bit
                if scanner.peek() == UInt8(ascii: "n") {
                    try scanner.expectLiteral("null")
                    continue
                }
                members.present |= bit
                return slot
            }
        }

        /// A key the table does not hold: refused if it came before, its value checked and skipped.
        func skipUnknown(_ key: [UInt8]) throws(IMWireError) {
            var unknown = members.unknown ?? []
            members.unknown = nil  // uniquely referenced while it grows
            guard unknown.insert(key).inserted else { throw Self.notHere }
            members.unknown = unknown
            try skipValue()
        }
    }

    /// ``plainKey(_:)``'s answers other than a slot.
    static let unknownPlainKey = -1
    static let notAPlainKey = -2

    /// The key at the position, when it is plain ASCII of at most sixteen bytes without escapes, as
    /// nearly every key is: matched from two words of the input, without a scan of its bytes one by
    /// one. Its slot in `table`, the position moved past its `:`; ``unknownPlainKey`` for a key the
    /// table does not hold (its bytes' range in ``unknownKey``); ``notAPlainKey``, nothing consumed,
    /// for any other key (escapes, other bytes, longer, near the end of the input), which
    /// ``JSONScanner/scanKey()`` then reads.
    @inline(__always)
    mutating func plainKey(_ table: TIMRESTKeyTable) -> Int {
        // [unsafe: json-scanner] three eight-byte loads at `start`, `start + 8` and `start + 16` after
        // `count - start >= 24`; two at `start` and `start + 8` after `count - start >= 17`
        // (the key's sixteen bytes at most and its closing quote); the tail load ends at `start + length`,
        // inside them; `colon` is read after `colon < count`.
        let base = scanner.base
        let start = scanner.position &+ 1
        guard scanner.count &- start >= 17, base[start &- 1] == UInt8(ascii: "\"") else { return Self.notAPlainKey }
        let raw = UnsafeRawPointer(base + start)
        let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        // A key of the table, with its closing quote, in the first three words: one probe.
        if scanner.count &- start >= 24, let (slot, length) = table.slot(
            first: first, second: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
            third: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self))) {
            var colon = start &+ length &+ 1
            while colon < scanner.count, base[colon] == 0x20 || base[colon] == 0x0A || base[colon] == 0x0D || base[colon] == 0x09 {
                colon &+= 1
            }
            guard colon < scanner.count, base[colon] == UInt8(ascii: ":") else { return Self.notAPlainKey }
            scanner.position = colon &+ 1
            scanner.skipWhitespace()
            return slot
        }
        let length: Int
        var ascii: UInt64
        let special = JSONEscapeScan.mask(first)
        if special != 0 {
            length = special.trailingZeroBitCount &>> 3
            ascii = first & ((1 &<< (UInt64(truncatingIfNeeded: length) &<< 3)) &- 1)
        } else {
            let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            let more = JSONEscapeScan.mask(second)
            guard more != 0 else { return Self.notAPlainKey }
            length = 8 &+ more.trailingZeroBitCount &>> 3
            ascii = first | second & ((1 &<< (UInt64(truncatingIfNeeded: length &- 8) &<< 3)) &- 1)
        }
        guard base[start &+ length] == UInt8(ascii: "\""), ascii & 0x8080_8080_8080_8080 == 0 else { return Self.notAPlainKey }
        let head = length >= 8 ? first : ascii
        let tail = length > 8 ? UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)) : 0
        var colon = start &+ length &+ 1
        while colon < scanner.count, base[colon] == 0x20 || base[colon] == 0x0A || base[colon] == 0x0D || base[colon] == 0x09 {
            colon &+= 1
        }
        guard colon < scanner.count, base[colon] == UInt8(ascii: ":") else { return Self.notAPlainKey }
        scanner.position = colon &+ 1
        scanner.skipWhitespace()
        guard let slot = table.slot(length: length, head: head, tail: tail) else {
            unknownKey = start..<start &+ length
            return Self.unknownPlainKey
        }
        return slot
    }

    /// Steps over the object at the position without checking it: the brackets and strings that
    /// delimit it, nothing else. For a content read again once its type is known (every check is made
    /// then), so a deferred content costs one check, not two. `false` (the position unchanged) for
    /// anything but a closed object, which the caller leaves to the tape decoder.
    mutating func stepOverObject() -> Bool {
        // [unsafe: json-scanner] each byte is read after `at < count`.
        let base = scanner.base
        let count = scanner.count
        var at = scanner.position
        guard at < count, base[at] == UInt8(ascii: "{") else { return false }
        var depth = 0
        while at < count {
            switch base[at] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth &+= 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth &-= 1
                if depth == 0 {
                    scanner.position = at &+ 1
                    return true
                }
            case UInt8(ascii: "\""):
                at &+= 1
                while at < count, base[at] != UInt8(ascii: "\"") {
                    at &+= base[at] == UInt8(ascii: "\\") ? 2 : 1
                }
            default:
                break
            }
            at &+= 1
        }
        return false
    }

    /// Checks and steps over the value at the position.
    mutating func skipValue() throws(IMWireError) {
        var sink = JSONScanner.DiscardingSink()
        try scanner.walkValue(depth: jsonDepth, maxDepth: maxJSONDepth, into: &sink)
    }

    /// Opens the array at the position (anything else is refused): `false` if it is empty.
    mutating func openArray() throws(IMWireError) -> Bool {
        guard scanner.peek() == UInt8(ascii: "["), jsonDepth < maxJSONDepth else { throw Self.notHere }
        jsonDepth += 1
        if try scanner.openContainer() { return true }
        jsonDepth -= 1
        return false
    }

    /// After an element: `true` at the next one, `false` after the `]`.
    mutating func nextElement() throws(IMWireError) -> Bool {
        if try scanner.nextMember(closing: UInt8(ascii: "]")) {
            scanner.skipWhitespace()
            return true
        }
        jsonDepth -= 1
        return false
    }

    // MARK: - Values (the tape decoder's rules: TIMRESTDecoder+Values.swift)

    mutating func string() throws(IMWireError) -> String {
        guard scanner.peek() == UInt8(ascii: "\"") else { throw Self.notHere }
        let scanned = try scanner.scanString()
        return scanner.validatedString(scanned, smallStrings: smallStrings)
    }

    mutating func strings() throws(IMWireError) -> [String] {
        var strings: [String] = []
        guard try openArray() else { return strings }
        repeat { strings.append(try string()) } while try nextElement()
        return strings
    }

    /// A number, as `read` takes it from its token: a JSON number or a string holding one (Tencent
    /// sends both).
    @inline(__always)
    mutating func number<Value>(
        _ read: (JSONScanner, JSONScanner.NumberToken) throws(IMWireError) -> Value
    ) throws(IMWireError) -> Value {
        guard scanner.peek() == UInt8(ascii: "\"") else {
            // Anything but a number is refused by the scan.
            let token = try scanner.scanNumber()
            return try read(scanner, token)
        }
        let scanned = try scanner.scanString()
        let value = scanner.withBytes(scanned) { bytes in try? JSONScanner.withNumber(in: bytes, read) }
        guard let value else { throw Self.notHere }
        return value
    }

    /// An integer: integral, whatever its notation (`1.0`, `1e3`).
    mutating func integer() throws(IMWireError) -> (magnitude: UInt64, negative: Bool) {
        try number { (scanner, token) throws(IMWireError) in try scanner.integerValue(token) }
    }

    mutating func unsigned(max: UInt64 = .max) throws(IMWireError) -> UInt64 {
        let (magnitude, negative) = try integer()
        guard !negative || magnitude == 0, magnitude <= max else { throw Self.notHere }
        return magnitude
    }

    mutating func int32() throws(IMWireError) -> Int32 {
        let (magnitude, negative) = try integer()
        guard magnitude <= (negative ? UInt64(Int32.max) + 1 : UInt64(Int32.max)) else { throw Self.notHere }
        return negative ? Int32(truncatingIfNeeded: 0 &- magnitude) : Int32(magnitude)
    }

    mutating func flag() throws(IMWireError) -> Bool {
        switch scanner.peek() {
        case UInt8(ascii: "t")?:
            try scanner.expectLiteral("true")
            return true
        case UInt8(ascii: "f")?:
            try scanner.expectLiteral("false")
            return false
        default:
            return try integer().magnitude != 0
        }
    }

    /// A finite double.
    mutating func double() throws(IMWireError) -> Double {
        try number { (scanner, token) throws(IMWireError) in try scanner.doubleValue(token) }
    }

    /// `MsgPriority`: a name, a string holding a number, or a number.
    mutating func priority() throws(IMWireError) -> Priority {
        guard scanner.peek() == UInt8(ascii: "\"") else { return Priority(rawValue: try int32()) }
        let start = scanner.position
        let name = try string()
        if let priority = TIMRESTPriority.byName[name] { return priority }
        scanner.position = start
        return Priority(rawValue: try int32())
    }
}
