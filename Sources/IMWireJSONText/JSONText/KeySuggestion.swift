import IMWireCore

/// The spelling a skipped key was probably meant to have: the one among `candidates` equal to
/// `key` ignoring ASCII case and underscores (`From_account`, `FromAccount` → `From_Account`;
/// `msgid` → `msgId`). Used on the skip path only, and by `imwire`'s format detection.
@usableFromInline package enum KeySuggestion {
    @usableFromInline package static func best(for key: String, among candidates: some Sequence<String>) -> String? {
        let folded = fold(key)
        guard !folded.isEmpty else { return nil }
        for candidate in candidates where candidate != key && fold(candidate) == folded {
            return candidate
        }
        return nil
    }

    /// `key` lowercased (ASCII) without underscores.
    @usableFromInline package static func fold(_ key: String) -> [UInt8] {
        key.utf8.compactMap { byte in
            switch byte {
            case UInt8(ascii: "_"): nil
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
            default: byte
            }
        }
    }

    /// `; did you mean "X"?`, or nothing.
    @usableFromInline package static func clause(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean \"\($0)\"?" } ?? ""
    }
}
