/// A count and its noun, the noun singular for exactly one: `counted(1, "byte")` is `1 byte`,
/// `counted(2, "entry")` is `2 entries`. Every message that puts a number before a noun goes
/// through it (a test scans the sources for one that does not).
@usableFromInline package func counted<N: BinaryInteger>(_ count: N, _ noun: String) -> String {
    if count == 1 { return "1 \(noun)" }
    if noun.hasSuffix("y"), let last = noun.dropLast().last, !"aeiou".contains(last) {
        return "\(count) \(noun.dropLast())ies"
    }
    return "\(count) \(noun)s"
}

/// `word` after its indefinite article, chosen by the first letter: `an image`, `an ImageInfoArray
/// entry`, `an unknown key`, but `a text`, `a UUID`, `a TIMTextElem`.
@usableFromInline package func withArticle(_ word: String) -> String {
    let lowered = word.lowercased()
    let vowel = lowered.first.map { "aeio".contains($0) } ?? false
    return (vowel || lowered.hasPrefix("un") ? "an " : "a ") + word
}
