/// The error-string convention of ``ConformanceResponse`` (Docs/conformance.md): an error string starts with
/// its error code, then `: ` and a detail (`truncated: input ends inside a varint, 2 bytes after its start`). A
/// validation error with several violations starts with their distinct codes, sorted and joined by
/// commas (`text_too_large,user_id_too_long: …`).
public enum ErrorCodes {
    /// The codes an error string starts with: the text before the first `:` (all of it if there is
    /// none), split at commas, trimmed of spaces.
    public static func codes(in errorString: String) -> [String] {
        let head = errorString.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return head.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
    }

    /// The code prefix for `codes`: distinct, sorted, comma-joined.
    public static func prefix(for codes: some Sequence<String>) -> String {
        Set(codes).sorted().joined(separator: ",")
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
