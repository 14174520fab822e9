/// Writes a ``TUIKitCustomPayload``'s members as compact JSON.
struct TUIKitPayloadWriter {
    private(set) var bytes: [UInt8] = []
    private var stackGuard = StackGuard()

    mutating func writeObject(_ members: [TUIKitCustomPayload.Member], depth: Int, path: String) throws(IMWireError) {
        try stackGuard.check(depth: depth, path: path.isEmpty ? nil : path)
        var names = Set<String>()
        bytes.append(UInt8(ascii: "{"))
        for (index, member) in members.enumerated() {
            let memberPath = path.isEmpty ? member.name : path + "." + member.name
            guard names.insert(member.name).inserted else {
                throw .duplicateKey(
                    "the name \"\(member.name)\" appears twice in one object; a reader would refuse it",
                    path: memberPath)
            }
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(member.name, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            try writeValue(member.value, depth: depth, path: memberPath)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func writeValue(_ value: TUIKitCustomPayload.Value, depth: Int, path: String) throws(IMWireError) {
        switch value {
        case .null: bytes += "null".utf8
        case .bool(let flag): bytes += (flag ? "true" : "false").utf8
        case .number(let number): bytes += number.text.utf8
        case .string(let string): JSONWriter.appendString(string, to: &bytes)
        case .object(let members): try writeObject(members, depth: depth + 1, path: path)
        case .array(let elements):
            try stackGuard.check(depth: depth + 1, path: path)
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try writeValue(element, depth: depth + 1, path: "\(path)[\(index)]")
            }
            bytes.append(UInt8(ascii: "]"))
        }
    }
}
