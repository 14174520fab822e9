import IMWire
import IMWireTestSupport
import Testing

/// `StringBytesMap` keeps its entries ordered by key bytes, one per key, however they were added:
/// in code, in any order, or by a decoder in wire order with keys repeated (the last value wins, as
/// protobuf says); and it answers lookups, changes and iteration as a dictionary keyed by bytes does.
@Suite struct StringBytesMapTests {
    static func encodedEntry(_ key: String, _ value: [UInt8]) -> [UInt8] {
        let entry = [0x0A, UInt8(key.utf8.count)] + Array(key.utf8) + [0x12, UInt8(value.count)] + value
        return [0x2A, UInt8(entry.count)] + entry  // UserProfile.custom_info is field 5
    }

    @Test func decodedEntriesAreOrderedByKeyBytesAndTheLastValueWins() throws {
        let wire = Self.encodedEntry("zeta", [1]) + Self.encodedEntry("alpha", [2]) + Self.encodedEntry("e\u{301}", [3])
            + Self.encodedEntry("é", [4]) + Self.encodedEntry("alpha", [5]) + [0x0A, 0x01, 0x41]  // user_id between entries
            + Self.encodedEntry("mu", [6])
        let profile = try UserProfile(serializedBytes: wire)
        #expect(profile.userID == "A")
        #expect(profile.customInfo.keys == ["alpha", "e\u{301}", "mu", "zeta", "é"])
        #expect(profile.customInfo["alpha"] == [5])
        #expect(profile.customInfo["é"] == [4] && profile.customInfo["e\u{301}"] == [3])
        #expect(profile.customInfo == ["mu": [6], "é": [4], "zeta": [1], "e\u{301}": [3], "alpha": [5]])
        #expect(Array(profile.customInfo.map(\.value)) == [[5], [3], [6], [1], [4]])
        // Written back in canonical order, one entry per key.
        let canonical = try profile.serializedBytes()
        #expect(try UserProfile(serializedBytes: canonical).customInfo == profile.customInfo)
        #expect(canonical == [0x0A, 0x01, 0x41] + Self.encodedEntry("alpha", [5]) + Self.encodedEntry("e\u{301}", [3])
            + Self.encodedEntry("mu", [6]) + Self.encodedEntry("zeta", [1]) + Self.encodedEntry("é", [4]))
    }

    @Test func changesKeepTheOrderAndMatchADictionaryByBytes() {
        var random = TestRandom(seed: 33)
        var map = StringBytesMap()
        var reference: [[UInt8]: [UInt8]] = [:]
        let keys = ["", "a", "b", "ab", "é", "e\u{301}", "好", "zz", "🍜", "a\u{0}"]
        for _ in 0..<2_000 {
            let key = keys[random.int(0...(keys.count - 1))]
            if random.int(0...3) == 0 {
                map[key] = nil
                reference[Array(key.utf8)] = nil
            } else {
                let value = [UInt8(random.int(0...255))]
                map[key] = value
                reference[Array(key.utf8)] = value
            }
            #expect(map[key] == reference[Array(key.utf8)])
        }
        #expect(map.count == reference.count)
        #expect(map.map { Array($0.key.utf8) } == reference.keys.sorted { $0.lexicographicallyPrecedes($1) })
        for entry in map { #expect(reference[Array(entry.key.utf8)] == entry.value) }
        // Equal maps built in other orders are equal and hash alike.
        var reversed = StringBytesMap()
        for entry in map.reversed() { reversed[entry.key] = entry.value }
        #expect(reversed == map && reversed.hashValue == map.hashValue)
    }

    /// Entries in reverse order on the wire are ordered once, not inserted one by one (which would be
    /// quadratic): N against 8N.
    @Test(.timed) func decodingEntriesInReverseOrderIsLinear() throws {
        func input(_ n: Int) -> [UInt8] {
            (0..<n).reversed().flatMap { Self.encodedEntry(sixDigits($0), [1]) }
        }
        let small = input(4_000)
        let large = input(32_000)
        #expect(try UserProfile(serializedBytes: large).customInfo.count == 32_000)
        let ratio = growthRatio(bound: growthBound) { _ = try? UserProfile(serializedBytes: small) } large: {
            _ = try? UserProfile(serializedBytes: large)
        }
        #expect(ratio < growthBound, "8× the entries took \(ratio)×")
    }
}

/// `n` as six digits, so that keys sort as numbers.
private func sixDigits(_ n: Int) -> String {
    let digits = String(n)
    return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
}
