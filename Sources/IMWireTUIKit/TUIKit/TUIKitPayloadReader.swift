import IMWireCore
import IMWireJSONText

/// Reads a ``TUIKitCustomPayload`` from JSON bytes: the input is tokenized once (``JSONTape``, with
/// every check of the JSON scanner), then the tokens are turned into values in one pass over them,
/// in document order, with an explicit stack of the containers still open — no recursion, so time
/// and memory are linear in the input and the thread's stack is never at risk.
enum TUIKitPayloadReader {
    static func read(_ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(IMWireError) -> TUIKitCustomPayload {
        let tape = try JSONTape(buffer, maxDepth: maxDepth)
        guard tape[0].kind == .object else {
            throw .invalidValue(
                "a TUIKit payload is a JSON object; found \(describe(tape[0].kind)) at offset \(tape[0].start)",
                offset: Int(tape[0].start))
        }
        guard case .object(var members) = values(of: tape) else { preconditionFailure("the root is an object") }
        guard let index = members.firstIndex(where: { $0.name == "businessID" }) else {
            throw .missingField("a TUIKit payload has a businessID; this object has none", path: "businessID")
        }
        guard case .string(let businessID) = members[index].value else {
            throw .invalidValue(
                "businessID must be a string, found \(describe(members[index].value))",
                path: "businessID")
        }
        guard !businessID.isEmpty else { throw .emptyTUIKitBusinessID() }
        members.remove(at: index)
        return TUIKitCustomPayload(businessID: businessID, fields: members)
    }

    /// A container being filled: its elements (or members, with the key of the value to come).
    private struct Open {
        let isObject: Bool
        var remaining: Int
        var elements: [TUIKitCustomPayload.Value] = []
        var members: [TUIKitCustomPayload.Member] = []
        var key: String? = nil
    }

    /// The value of the whole tape.
    private static func values(of tape: JSONTape) -> TUIKitCustomPayload.Value {
        // [unsafe: json-scanner] a number token's range was scanned inside the input.
        var open: [Open] = []
        var result: TUIKitCustomPayload.Value = .null
        var index = 0
        let end = Int(tape[0].next)
        while index < end {
            let token = tape[index]
            var value: TUIKitCustomPayload.Value
            switch token.kind {
            case .object, .array:
                index += 1
                if token.count > 0 {
                    open.append(Open(isObject: token.kind == .object, remaining: Int(token.count)))
                    continue
                }
                value = token.kind == .object ? .object([]) : .array([])
            case .string:
                index += 1
                let string = tape.string(index - 1)
                if let last = open.indices.last, open[last].isObject, open[last].key == nil {
                    open[last].key = string
                    continue
                }
                value = .string(string)
            case .number:
                index += 1
                let text = String(decoding: UnsafeBufferPointer(
                    start: tape.scanner.base + Int(token.start), count: Int(token.end - token.start)), as: UTF8.self)
                value = .number(TUIKitCustomPayload.Number(checked: text))
            case .true, .false:
                index += 1
                value = .bool(token.kind == .true)
            case .null:
                index += 1
                value = .null
            }
            // Hand the value to its container; a container that is full becomes a value itself.
            while true {
                guard let last = open.indices.last else {
                    result = value
                    break
                }
                if open[last].isObject {
                    open[last].members.append(TUIKitCustomPayload.Member(open[last].key ?? "", value))
                    open[last].key = nil
                } else {
                    open[last].elements.append(value)
                }
                open[last].remaining -= 1
                guard open[last].remaining == 0 else { break }
                let done = open.removeLast()
                value = done.isObject ? .object(done.members) : .array(done.elements)
            }
        }
        return result
    }

    static func describe(_ kind: JSONTape.Kind) -> String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .true, .false: "a boolean"
        case .null: "null"
        }
    }

    static func describe(_ value: TUIKitCustomPayload.Value) -> String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
