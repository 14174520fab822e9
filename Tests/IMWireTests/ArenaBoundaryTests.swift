// A message view's words at their boundaries: views that need exactly the thread buffer's 512 words,
// one fewer and one more, and the same about its first doubling (1024), from binary and from JSON;
// the layout tables every view decoder indexes (each field's word inside its node, each sub-layout
// inside the table, each field number inside the per-number tables); and field numbers just past
// each type's last and the largest there is, kept as unknown fields by the decoder and the view.
// Run under AddressSanitizer by the test command: the words are a heap block of exactly their
// capacity, each layout's tables blocks of exactly their entries.

import IMWire
import IMWireTestSupport
import Testing

@Suite("Message view words and layouts at their boundaries")
struct ArenaBoundaryTests {
    // MARK: Words

    static let table = Message._arenaTable

    static func slotCount<M: ArenaLaidOut>(_: M.Type) -> Int { table.layouts[M._typeIndex].slotCount }

    /// The words a view of ``message(texts:atUsers:receipt:)`` takes, as both view decoders
    /// allocate them: word 0 (never a node), the root node, per text elem a list entry (a link word
    /// and the elem's node) and the text elem's node, per @ user an entry (a link and the string's
    /// word), and the read receipt's node.
    static func words(texts: Int, atUsers: Int, receipt: Bool) -> Int {
        1 + slotCount(Message.self) + texts * (1 + slotCount(Elem.self) + slotCount(TextElem.self)) + atUsers * 2
            + (receipt ? slotCount(C2CReadReceipt.self) : 0)
    }

    static func message(texts: Int, atUsers: Int, receipt: Bool) -> Message {
        Message(msgID: "m", elems: (0..<texts).map { .text("t\($0)") }, atUserList: (0..<atUsers).map { "u\($0)" },
                signal: receipt ? .c2cReadReceipt(C2CReadReceipt(userID: "peer", readTimestampMs: 5)) : nil)
    }

    /// The capacity the words have after a view of `count` words made from the initial 512: the
    /// smallest doubling that holds them.
    static func capacity(forWords count: Int) -> Int {
        var capacity = 512
        while capacity < count { capacity *= 2 }
        return capacity
    }

    /// Views `message` from binary and from JSON, each from the initial words (a heap block of 512
    /// words) and its input in a block of its exact size; checks each reads what the decoder reads
    /// and left the words grown to hold exactly `words`.
    static func expectViews(of message: Message, words: Int, _ label: String) throws {
        let binary = try message.serializedBytes()
        let json = try message.jsonUTF8Bytes()
        try withExactBytes(binary) { bytes in
            let decoded = try Message(serializedBytes: bytes)
            #expect(decoded == message, "\(label)")
            let (viewed, capacities) = try withFreshScratch { try Message.withView(serializedBytes: bytes) { Message($0) } }
            #expect(viewed == decoded, "\(label): binary view")
            #expect(capacities.words == capacity(forWords: words), "\(label): \(words) words grew to \(capacities.words)")
        }
        try withExactBytes(json) { bytes in
            let decoded = try Message(jsonUTF8Bytes: bytes)
            #expect(decoded == message, "\(label)")
            let (viewed, capacities) = try withFreshScratch { try Message.withView(jsonUTF8Bytes: bytes) { Message($0) } }
            #expect(viewed == decoded, "\(label): JSON view")
            #expect(capacities.words == capacity(forWords: words), "\(label): \(words) words grew to \(capacities.words) (JSON)")
        }
    }

    /// Views needing exactly 511, 512 and 513 words (the initial capacity) and 1023, 1024 and 1025
    /// (its first doubling), each made of @ users only and of as many text elems as fit: the view
    /// fills the words to the last one without growing them, or grows them for the one word more.
    @Test(arguments: [511, 512, 513, 1023, 1024, 1025])
    func viewsNeedingExactlyTheWordsCapacityReadTheMessage(words target: Int) throws {
        var shapes: [(texts: Int, atUsers: Int, receipt: Bool)] = []
        for receipt in [false, true] {
            let fixed = Self.words(texts: 0, atUsers: 0, receipt: receipt)
            let perText = Self.words(texts: 1, atUsers: 0, receipt: false) - Self.words(texts: 0, atUsers: 0, receipt: false)
            let fitting = (0...((target - fixed) / perText)).filter { (target - fixed - $0 * perText) % 2 == 0 }
            for texts in [fitting.first, fitting.last].compactMap({ $0 }) {
                shapes.append((texts, (target - fixed - texts * perText) / 2, receipt))
            }
        }
        #expect(shapes.count >= 2, "no message needs \(target) words")
        for shape in shapes {
            #expect(Self.words(texts: shape.texts, atUsers: shape.atUsers, receipt: shape.receipt) == target)
            try Self.expectViews(of: Self.message(texts: shape.texts, atUsers: shape.atUsers, receipt: shape.receipt), words: target,
                                 "\(shape.texts) texts, \(shape.atUsers) @ users, receipt \(shape.receipt)")
        }
    }

    /// Every number of text elems (6 words each) whose view needs from some 75 words under 512 to
    /// 75 over, and the same about 1024; and every number of @ users (2 words each), with and without
    /// a read receipt (3 words), whose view needs from 20 words under each to 20 over: every word
    /// count in those ranges. Each view reads what the decoder reads, and leaves the words grown as
    /// the count says.
    @Test func viewsOfEveryCountAcrossTheFirstTwoCapacitiesReadTheMessage() throws {
        for texts in Array(70...95) + Array(155...180) {
            try Self.expectViews(of: Self.message(texts: texts, atUsers: 0, receipt: false),
                                 words: Self.words(texts: texts, atUsers: 0, receipt: false), "\(texts) texts")
        }
        var counts: Set<Int> = []
        for receipt in [false, true] {
            for atUsers in Array(235...265) + Array(490...520) {
                let words = Self.words(texts: 0, atUsers: atUsers, receipt: receipt)
                counts.insert(words)
                try Self.expectViews(of: Self.message(texts: 0, atUsers: atUsers, receipt: receipt), words: words, "\(atUsers) @ users, receipt \(receipt)")
            }
        }
        #expect(counts.isSuperset(of: Set(492...532).union(1004...1044)), "\(counts.sorted())")
    }

    // MARK: Layouts

    /// `field`'s properties, for comparing two fields.
    static func properties(_ field: ArenaField) -> [Int] {
        [Int(field.kind.rawValue), Int(field.container.rawValue), Int(field.slot), Int(field.sub), Int(field.index), Int(field.shift)]
    }

    /// Every layout of the table agrees with its schema and stays inside its node and the table:
    /// each field's words (two for a oneof member) and bits lie inside the node past word 0 (the
    /// unknown fields' list) and no two fields share them but the members of one oneof; a message
    /// field's sub-layout is in the table and is its type's; the per-number tables cover 0...the
    /// highest number, with the wire type 0xFF exactly where there is no field; `byIndex` has the
    /// schema's fields in order, the same as the per-number table.
    @Test func everyLayoutKeepsItsFieldsInsideItsNodeAndItsTable() {
        let table = Self.table
        #expect(table.count == 22)
        for index in 0..<table.count {
            let layout = table.layouts[index]
            let schema = layout.schema
            let name = schema.fullName
            #expect(layout.maxNumber == (schema.numbers.max() ?? 0), "\(name)")
            #expect(layout.fieldCount == schema.fields.count, "\(name)")
            // Who has each word: a field number, a oneof (negative, its id), or bits of a word.
            var wordOwner: [Int: String] = [:]
            var bitsUsed: [Int: UInt64] = [:]
            var usedWords: Set<Int> = []
            for number in 0...layout.maxNumber {
                let field = layout.fields[number]
                let wireType = layout.wireTypes[number]
                guard let schemaField = schema.field(number: number) else {
                    #expect(wireType == 0xFF && field.kind == .unknown, "\(name) \(number): no field, wire type \(wireType)")
                    continue
                }
                let position = schema.indexByNumber[number]
                #expect(Int(field.index) == position, "\(name) \(number)")
                #expect(wireType != 0xFF && wireType == field.wireType, "\(name) \(number): wire type \(wireType)")
                // Its kind and container, from the schema.
                let kind: ArenaField.Kind
                switch schemaField.kind {
                case .string: kind = .string
                case .bytes: kind = .bytes
                case .uint64: kind = .uint64
                case .uint32: kind = .uint32
                case .int32: kind = .int32
                case .bool: kind = .bool
                case .double: kind = .fixed64
                case .enumeration: kind = .enumeration
                case .stringToBytesMap: kind = .stringToBytesMap
                case .message(let sub):
                    kind = .message
                    #expect(Int(field.sub) < table.count, "\(name) \(number): sub-layout \(field.sub)")
                    if Int(field.sub) < table.count {
                        #expect(table.layouts[Int(field.sub)].schema === sub(), "\(name) \(number): sub-layout of another type")
                    }
                }
                #expect(field.kind == kind, "\(name) \(number): \(field.kind), schema \(schemaField.kind)")
                let container: ArenaField.Container
                if schemaField.isRepeated || kind == .stringToBytesMap {
                    container = .repeated
                } else if schemaField.oneof != nil {
                    container = .oneof
                } else if [.uint32, .int32, .enumeration, .bool].contains(kind) {
                    container = .bits
                } else {
                    container = .single
                }
                #expect(field.container == container, "\(name) \(number): \(field.container), expected \(container)")
                // Its words, inside the node past word 0, shared only as a oneof's or as bits.
                let slot = Int(field.slot)
                let words = field.container == .oneof ? 2 : 1
                #expect(slot > 0 && slot + words <= layout.slotCount, "\(name) \(number): slot \(slot) of \(layout.slotCount)")
                let owner: String
                switch field.container {
                case .oneof: owner = "oneof \(schema.oneofIDs[position])"
                case .bits: owner = "bits"
                default: owner = "field \(number)"
                }
                for word in slot..<(slot + words) {
                    usedWords.insert(word)
                    if let other = wordOwner[word] {
                        #expect(other == owner && owner != "field \(number)", "\(name) \(number): word \(word) is \(other)'s too")
                    }
                    wordOwner[word] = owner
                }
                if field.container == .bits {
                    let width = kind == .bool ? 1 : 32
                    #expect(Int(field.shift) + width <= 64, "\(name) \(number): bits \(field.shift)..<\(Int(field.shift) + width)")
                    let mask: UInt64 = (width == 64 ? ~0 : (1 << UInt64(width)) - 1) << UInt64(min(Int(field.shift), 63))
                    #expect(bitsUsed[slot, default: 0] & mask == 0, "\(name) \(number): bits shared")
                    bitsUsed[slot, default: 0] |= mask
                } else {
                    #expect(field.shift == 0, "\(name) \(number)")
                }
            }
            // Every word of a node is some field's: the slot count is not larger than the fields need.
            #expect(usedWords == Set(1..<layout.slotCount), "\(name): words \(usedWords.sorted()) of \(layout.slotCount)")
            // The fields by index: the schema's, in order, each the same as by number.
            var numbered = 0
            for number in 0...layout.maxNumber where layout.wireTypes[number] != 0xFF { numbered += 1 }
            #expect(numbered == layout.fieldCount, "\(name)")
            for position in 0..<layout.fieldCount {
                let (number, field) = layout.byIndex[position]
                #expect(number == schema.numbers[position] && number <= layout.maxNumber, "\(name) field \(position): number \(number)")
                if number <= layout.maxNumber {
                    #expect(Self.properties(field) == Self.properties(layout.fields[number]), "\(name) \(number)")
                }
            }
        }
    }

    // MARK: Unknown field numbers

    static func tag(_ number: Int, _ wireType: Int) -> [UInt8] { Varint.encode(UInt64(number) << 3 | UInt64(wireType)) }

    static func lengthDelimited(_ number: Int, _ value: [UInt8]) -> [UInt8] {
        tag(number, 2) + Varint.encode(UInt64(value.count)) + value
    }

    /// Field `number` with a value of each wire type (a group holding a varint).
    static func everyWireType(_ number: Int) -> [[UInt8]] {
        [tag(number, 0) + Varint.encode(300), tag(number, 1) + [1, 2, 3, 4, 5, 6, 7, 8], lengthDelimited(number, Array("x".utf8)),
         tag(number, 3) + tag(1, 0) + [1] + tag(number, 4), tag(number, 5) + [1, 2, 3, 4]]
    }

    /// Every message type reachable from `Message`, in a message at a path of field numbers down to
    /// it (a type is reached once), with a field one past its highest number, the largest field
    /// number there is (2^29 - 1, a five-byte tag) — each of every wire type — and its highest field
    /// with a wire type not its own: the decoder and the view keep each as an unknown field of that
    /// type, and the message encodes back to exactly its input.
    @Test func numbersPastEachTypesLastFieldAreKeptAsUnknownFields() throws {
        let table = Self.table
        var paths: [Int: [Int]] = [Message._typeIndex: []]
        var queue = [Message._typeIndex]
        while !queue.isEmpty {
            let index = queue.removeFirst()
            let layout = table.layouts[index]
            for position in 0..<layout.fieldCount {
                let (number, field) = layout.byIndex[position]
                guard field.kind == .message, paths[Int(field.sub)] == nil else { continue }
                paths[Int(field.sub)] = paths[index]! + [number]
                queue.append(Int(field.sub))
            }
        }
        #expect(paths.count == table.count, "types not reached from Message: \(Set(0..<table.count).subtracting(paths.keys).sorted())")
        for (index, path) in paths.sorted(by: { $0.key < $1.key }) {
            let layout = table.layouts[index]
            let last = layout.maxNumber
            var unknowns = Self.everyWireType(last + 1) + Self.everyWireType((1 << 29) - 1)
            unknowns.append(layout.wireTypes[last] == 0 ? Self.lengthDelimited(last, [1]) : Self.tag(last, 0) + [1])
            unknowns.append(unknowns.flatMap { $0 })
            for unknown in unknowns {
                var input = unknown
                for number in path.reversed() { input = Self.lengthDelimited(number, input) }
                let label = "\(layout.schema.fullName) at \(path): \(unknown)"
                try withExactBytes(input) { bytes in
                    let decoded = try Message(serializedBytes: bytes)
                    #expect(decoded.containsUnknownFields, "\(label)")
                    #expect(try decoded.serializedBytes() == input, "\(label)")
                    let viewed = try Message.withView(serializedBytes: bytes) { Message($0) }
                    #expect(viewed == decoded, "\(label): view")
                    #expect(try viewed.serializedBytes() == input, "\(label): view")
                }
            }
        }
    }
}
