import IMWireCore

/// A JSON document as a flat list of tokens over the input bytes — in the spirit of
/// swift-foundation's `JSONMap` — for readers that need random access to a value's members (Tencent's
/// REST JSON, where an element's `MsgType` may come after its `MsgContent`).
///
/// One pass of ``JSONScanner/walkValue(depth:maxDepth:into:)`` builds it, without recursion, with
/// every check of the scanner (UTF-8, escapes, numbers, duplicate keys, depth). No `String` is made:
/// strings are byte ranges of the input, or of ``unescaped`` for the few with escapes; numbers are
/// ranges, parsed only when a reader asks for their value. Every container records where it ends,
/// so skipping a value is O(1). Memory is a fixed 16 bytes per token: linear in the input.
@usableFromInline package struct JSONTape {
    @usableFromInline package enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null
    }

    /// One token. An object is followed by its members, each a key (a `.string`) and then its
    /// value; an array by its elements.
    @usableFromInline package struct Token {
        @usableFromInline package var kind: Kind
        /// A string whose bytes are in ``JSONTape/unescaped`` (it had escapes), not in the input.
        @usableFromInline package var isUnescaped: Bool
        /// The bytes: a string's value (without quotes), a number's text; for a container, the
        /// offset of its bracket.
        @usableFromInline package var start: UInt32
        @usableFromInline package var end: UInt32
        /// For a container, the index of the first token after it; for a scalar, the next index.
        @usableFromInline package var next: UInt32
        /// For a container, its members or elements.
        @usableFromInline package var count: UInt32

        @inlinable
        package init(kind: Kind, isUnescaped: Bool, start: UInt32, end: UInt32, next: UInt32, count: UInt32) {
            self.kind = kind
            self.isUnescaped = isUnescaped
            self.start = start
            self.end = end
            self.next = next
            self.count = count
        }
    }

    @usableFromInline package var tokens: [Token] = []
    /// The bytes of the strings that had escapes, unescaped.
    @usableFromInline package var unescaped: [UInt8] = []
    /// The input.
    @usableFromInline package let scanner: JSONScanner

    /// Tokenizes the one JSON value that `buffer` holds (whitespace around it allowed, nothing after
    /// it), with containers nested at most `maxDepth` deep.
    @inlinable
    package init(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(IMWireError) {
        guard buffer.count < Int(UInt32.max) else {
            throw .inputBeyondFourGiB(size: buffer.count)
        }
        var scanner = JSONScanner(buffer)
        var builder = Builder()
        scanner.skipWhitespace()
        guard scanner.position < scanner.count else {
            guard scanner.count > 0 else {
                throw .emptyJSON(expected: "a JSON value")
            }
            throw scanner.syntaxError("expected a JSON value")
        }
        do {
            try scanner.walkValue(depth: 0, maxDepth: maxDepth, into: &builder)
        } catch {
            throw scanner.byteOrderMarkError() ?? error
        }
        scanner.skipWhitespace()
        guard scanner.position == scanner.count else {
            throw scanner.syntaxError("unexpected data after the JSON value")
        }
        tokens = builder.tokens
        unescaped = scanner.unescaped
        self.scanner = scanner
    }

    /// Appends tokens as the scanner walks the value.
    @usableFromInline struct Builder: JSONScanner.Sink {
        @usableFromInline var tokens: [Token] = []
        /// Indices of the open containers.
        @usableFromInline var open: [Int] = []

        @inlinable
        init() {}

        @inlinable
        mutating func open(object: Bool, at offset: Int) {
            open.append(tokens.count)
            tokens.append(Token(kind: object ? .object : .array, isUnescaped: false, start: UInt32(offset), end: UInt32(offset), next: 0, count: 0))
        }

        @inlinable
        mutating func close(members: Int) {
            let index = open.removeLast()
            tokens[index].next = UInt32(tokens.count)
            tokens[index].count = UInt32(members)
        }

        @inlinable
        mutating func key(_ key: JSONScanner.ScannedString, at offset: Int) {
            string(key, at: offset)
        }

        /// (A string with escapes has its bytes in the scanner's `unescaped`, which the tape keeps.)
        @inlinable
        mutating func string(_ string: JSONScanner.ScannedString, at offset: Int) {
            append(.string, start: string.start, end: string.end, isUnescaped: string.isUnescaped)
        }

        @inlinable
        mutating func number(_ token: JSONScanner.NumberToken) {
            append(.number, start: token.start, end: token.end)
        }

        @inlinable
        mutating func literal(_ value: Bool?, at offset: Int) {
            append(value.map { $0 ? .true : .false } ?? .null, start: offset, end: offset)
        }

        @inlinable
        mutating func append(_ kind: Kind, start: Int, end: Int, isUnescaped: Bool = false) {
            tokens.append(Token(
                kind: kind, isUnescaped: isUnescaped, start: UInt32(start), end: UInt32(end),
                next: UInt32(tokens.count + 1), count: 0))
        }
    }

    // MARK: - Reading

    /// The token at `index`.
    @inline(__always)
    @inlinable
    package subscript(index: Int) -> Token { tokens[index] }

    /// Calls `body` with the bytes of the string token at `index`.
    @inlinable
    package func withBytes<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(IMWireError) -> R) throws(IMWireError) -> R {
        // [unsafe: json-scanner] a string token's range was scanned inside the input (or the unescaped bytes,
        // kept for the tape's life).
        let token = tokens[index]
        if token.isUnescaped {
            return try unescaped.withUnsafeBufferPointer { (all) throws(IMWireError) in
                try body(UnsafeBufferPointer(rebasing: all[Int(token.start)..<Int(token.end)]))
            }
        }
        return try body(UnsafeBufferPointer(start: scanner.base + Int(token.start), count: Int(token.end - token.start)))
    }

    /// The string token at `index` as a `String` (its bytes are valid UTF-8).
    @inlinable
    package func string(_ index: Int) -> String {
        (try? withBytes(index) { String(decoding: $0, as: UTF8.self) }) ?? ""
    }

    /// The members of the object at `index`: (key index, value index) pairs, in document order.
    @inlinable
    package func members(of index: Int) -> some Sequence<(key: Int, value: Int)> {
        Children(tape: self, container: index).lazy.map { (key: $0, value: $0 + 1) }
    }

    /// The elements of the array at `index`: their indices, in document order.
    @inlinable
    package func elements(of index: Int) -> Children { Children(tape: self, container: index) }

    /// The children of a container, by index: an array's elements, an object's keys (each followed
    /// by its value). Each step is O(1), whatever a child holds.
    @usableFromInline package struct Children: Sequence {
        @usableFromInline let tape: JSONTape
        @usableFromInline let container: Int

        @inlinable
        init(tape: JSONTape, container: Int) {
            self.tape = tape
            self.container = container
        }

        @inlinable
        package func makeIterator() -> Iterator {
            Iterator(
                tokens: tape.tokens, position: container + 1, end: Int(tape.tokens[container].next),
                isObject: tape.tokens[container].kind == .object)
        }

        @usableFromInline package struct Iterator: IteratorProtocol {
            @usableFromInline let tokens: [Token]
            @usableFromInline var position: Int
            @usableFromInline let end: Int
            @usableFromInline let isObject: Bool

            @inlinable
            init(tokens: [Token], position: Int, end: Int, isObject: Bool) {
                self.tokens = tokens
                self.position = position
                self.end = end
                self.isObject = isObject
            }

            @inlinable
            package mutating func next() -> Int? {
                guard position < end else { return nil }
                defer { position = Int(tokens[isObject ? position + 1 : position].next) }
                return position
            }
        }
    }
}
