/// A count and its noun, the noun singular for exactly one: `counted(1, "byte")` is `1 byte`,
/// `counted(2, "entry")` is `2 entries`. Every message that puts a number before a noun goes
/// through it (a test scans the sources for one that does not).
package func counted<N: BinaryInteger>(_ count: N, _ noun: String) -> String {
    if count == 1 { return "1 \(noun)" }
    if noun.hasSuffix("y"), let last = noun.dropLast().last, !"aeiou".contains(last) {
        return "\(count) \(noun.dropLast())ies"
    }
    return "\(count) \(noun)s"
}
