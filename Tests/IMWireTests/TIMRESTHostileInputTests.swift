// Hostile tim-rest (Tencent webhooks are untrusted input a server decodes on every message): every
// shape of input decodes, and every model encodes, in time linear in its size and in its nesting,
// and deep nesting ends in an error rather than a stack overflow, whatever the depth limit.
//
// Timing: no absolute bounds. Each shape is measured at size N and 8N (the best of a few runs each);
// linear is about 8×, quadratic about 64×; the bound is `growthBound` (24×). For nesting that bound
// matters most: 8,000 layers touch 20 MB of stack and model that no cache holds, so each level costs up to
// twice as much as at 1,000 (measured: 0.95 µs per layer at 1,000, 1.5 µs at 8,000, 1.9 µs at 16,000,
// for every codec, binary and JSON too), which is still far from quadratic. `growthRatio` measures
// again while a ratio is over the bound, because other suites run at the same time.

import Foundation
import IMWire
import IMWireTestSupport
import Testing

@Suite(.serialized) struct TIMRESTHostileInputTests {
    /// A raised limit for the deep shapes; the big-stack thread below holds it.
    static let deep = TIMRESTDecodingOptions(maxDepth: 100_000, maxInputSize: 64 * 1024 * 1024)
    static let bigStack = 256 * 1024 * 1024

    /// Input shapes of `n` units each (a unit is a key, an elem, a layer, …), about 10–100 bytes each.
    static let inputShapes: [String: @Sendable (Int) -> [UInt8]] = [
        "unknown top-level keys": { n in
            Array((#"{"GroupId":"g","From_Account":"a","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]"#
                + (0..<n).map { #","k\#($0)":\#($0)"# }.joined() + "}").utf8)
        },
        "unknown keys in MsgContent": { n in
            Array((#"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi""#
                + (0..<n).map { #","k\#($0)":[\#($0),{"x":null}]"# }.joined() + "}}]}").utf8)
        },
        "elems": { n in
            Array((#"{"MsgBody":["# + Array(repeating: #"{"MsgType":"TIMFaceElem","MsgContent":{"Index":1,"Data":"d"}}"#, count: n)
                .joined(separator: ",") + "]}").utf8)
        },
        "relay layers": { n in
            var text = #"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]}"#
            for _ in 0..<n { text = #"{"MsgBody":[{"MsgType":"TIMRelayElem","MsgContent":{"MsgList":["# + text + "]}}]}" }
            return Array(text.utf8)
        },
        "relay layers, content before type": { n in
            var text = #"{"MsgBody":[{"MsgContent":{"Text":"x"},"MsgType":"TIMTextElem"}]}"#
            for _ in 0..<n { text = #"{"MsgBody":[{"MsgContent":{"MsgList":["# + text + #"]},"MsgType":"TIMRelayElem"}]}"# }
            return Array(text.utf8)
        },
        "long escaped string": { n in
            Array((#"{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":""# + String(repeating: #"a\n\u00e9\""#, count: n) + #""}}]}"#).utf8)
        },
        "GroupAtInfo entries": { n in
            Array((#"{"GroupId":"g","MsgBody":[],"GroupAtInfo":["#
                + (0..<n).map { #"{"GroupAtAllFlag":0,"GroupAt_Account":"u\#($0)"}"# }.joined(separator: ",") + "]}").utf8)
        },
        "unknown deep value": { n in
            Array((#"{"MsgBody":[],"Future":"# + String(repeating: "[", count: n) + String(repeating: "]", count: n) + "}").utf8)
        },
        "unknown wide value": { n in
            Array((#"{"MsgBody":[],"Future":["# + (0..<n).map { #"{"a\#($0)":[1,"s",true]}"# }.joined(separator: ",") + "]}").utf8)
        },
    ]

    @Test(.timed, arguments: inputShapes.keys.sorted())
    func decodingTimeIsLinearInTheInput(_ shape: String) {
        let make = Self.inputShapes[shape]!
        let n = Self.units(shape)
        let ratio = runOnThread(stackSize: Self.bigStack) { () -> Double in
            let small = make(n)
            let large = make(8 * n)
            // Both decode (the deep value needs the raised limit).
            guard (try? Message(timRESTUTF8Bytes: small, options: Self.deep)) != nil,
                  (try? Message(timRESTUTF8Bytes: large, options: Self.deep)) != nil
            else { return -1 }
            return growthRatio(bound: Self.bound(shape)) {
                _ = try? Message(timRESTUTF8Bytes: small, options: Self.deep)
            } large: {
                _ = try? Message(timRESTUTF8Bytes: large, options: Self.deep)
            }
        }
        #expect(ratio > 0, "\(shape) does not decode")
        #expect(ratio < Self.bound(shape), "\(shape): 8× the input took \(ratio)× the time")
    }

    /// The units of the small input: enough for milliseconds of work (timer noise), fewer for
    /// nesting, where 8× of it already spreads 15 MB of stack and model over memory no cache holds.
    static func units(_ shape: String) -> Int {
        shape.contains("layers") || shape.contains("deep") ? 250 : 4_000
    }

    /// How much longer 8× the input may take (see the top of the file).
    static func bound(_ shape: String) -> Double { growthBound }

    /// Models of `n` units: nested mergers, many elems, many @ mentions.
    static let modelShapes: [String: @Sendable (Int) -> Message] = [
        "merger layers": { n in
            var message = Message(elems: [.text("x")])
            for _ in 0..<n { message = Message(elems: [.merger(MergerElem(messages: [message]))]) }
            return message
        },
        "elems": { n in Message(elems: Array(repeating: .text("some text \u{1F35C}"), count: n)) },
        "@ mentions": { n in Message(target: .groupID("g"), elems: [.text("x")], atUserList: (0..<n).map { "user\($0)" }) },
    ]

    @Test(.timed, arguments: modelShapes.keys.sorted())
    func encodingTimeIsLinearInTheModel(_ shape: String) {
        let make = Self.modelShapes[shape]!
        let options = TIMRESTEncodingOptions(maxDepth: 100_000)
        let n = Self.units(shape)
        let ratio = runOnThread(stackSize: Self.bigStack) { () -> Double in
            let small = make(n)
            let large = make(8 * n)
            guard (try? small.timRESTUTF8Bytes(options: options)) != nil, (try? large.timRESTUTF8Bytes(options: options)) != nil else {
                return -1
            }
            let ratio = growthRatio(bound: Self.bound(shape)) {
                _ = try? small.timRESTUTF8Bytes(options: options)
            } large: {
                _ = try? large.timRESTUTF8Bytes(options: options)
            }
            // Freeing a deep model recurses in the runtime: keep these on this big stack's thread.
            withExtendedLifetime((small, large)) {}
            return ratio
        }
        #expect(ratio > 0, "\(shape) does not encode")
        #expect(ratio < Self.bound(shape), "\(shape): 8× the model took \(ratio)× the time")
    }

    /// 433 KB of keys (40,000 of them): Tencent adds keys, and a server must not spend more than a
    /// moment on them. (It took 37.6 s when duplicate detection compared every pair.)
    @Test(.timed) func fortyThousandKeysDecodeInWellUnderASecond() throws {
        let input = Self.inputShapes["unknown top-level keys"]!(40_000)
        #expect(input.count > 400_000)
        let seconds = bestTime(runs: 1) { _ = try? Message(timRESTUTF8Bytes: input) }
        #expect(seconds < 0.5, "\(seconds) s")
        #expect(try Message(timRESTUTF8Bytes: input).elems.count == 1)
    }

    // MARK: - Stack

    /// With a raised limit, nesting far deeper than a 512 KiB worker stack holds ends in
    /// `depth_limit_exceeded`, from the library called on an ordinary thread — never a crash.
    @Test(arguments: ["tim-rest decode", "tim-rest encode", "binary decode", "binary encode", "json decode", "json encode"])
    func aRaisedDepthLimitNeverOverflowsAWorkerStack(_ codec: String) throws {
        let layers = 6_000
        let big = 1 << 20
        let outcome = runOnThread(stackSize: Self.bigStack) { () -> [UInt8] in
            // Inputs made on a big stack (encoding them needs one).
            let model = Self.modelShapes["merger layers"]!(layers)
            switch codec {
            case "tim-rest decode": return (try? model.timRESTUTF8Bytes(options: TIMRESTEncodingOptions(maxDepth: big))) ?? []
            case "binary decode": return (try? model.serializedBytes(options: BinaryEncodingOptions(maxDepth: big))) ?? []
            case "json decode": return (try? model.jsonUTF8Bytes(options: JSONEncodingOptions(maxDepth: big))) ?? []
            default: return [1]
            }
        }
        #expect(!outcome.isEmpty)
        let input = outcome
        let result = runOnThread(stackSize: 512 * 1024) { () -> String in
            // The model for the encoders is built (and freed) on the big stack's thread only
            // through its bytes: decoding them here would itself be the deep recursion.
            do {
                switch codec {
                case "tim-rest decode": _ = try Message(timRESTUTF8Bytes: input, options: TIMRESTDecodingOptions(maxDepth: big))
                case "binary decode": _ = try Message(serializedBytes: input, options: BinaryDecodingOptions(maxDepth: big))
                case "json decode": _ = try Message(jsonUTF8Bytes: input, options: JSONDecodingOptions(maxDepth: big))
                default: return "encoder"
                }
                return "decoded"
            } catch let error as IMWireError {
                return error.code.name
            } catch {
                return "unexpected \(error)"
            }
        }
        if result != "encoder" {
            #expect(result == "depth_limit_exceeded", "\(codec): \(result)")
            return
        }
        // Encoders: the model is made here, on the small stack, iteratively; only encoding recurses.
        let encoded = runOnThread(stackSize: 512 * 1024) { () -> String in
            let model = Self.modelShapes["merger layers"]!(layers)
            let outcome: String
            do {
                switch codec {
                case "tim-rest encode": _ = try model.timRESTUTF8Bytes(options: TIMRESTEncodingOptions(maxDepth: big))
                case "binary encode": _ = try model.serializedBytes(options: BinaryEncodingOptions(maxDepth: big))
                default: _ = try model.jsonUTF8Bytes(options: JSONEncodingOptions(maxDepth: big))
                }
                outcome = "encoded"
            } catch let error as IMWireError {
                outcome = error.code.name
            } catch {
                outcome = "unexpected \(error)"
            }
            // Freeing 18,000 nested levels recurses in the runtime; keep it off this small stack.
            let keep = Unmanaged.passRetained(Holder(model))
            _ = keep
            return outcome
        }
        #expect(encoded == "depth_limit_exceeded", "\(codec): \(encoded)")
    }

    /// Keeps a value alive forever (a deep model's release recurses through every level).
    final class Holder: @unchecked Sendable {
        let value: Message
        init(_ value: Message) { self.value = value }
    }
}
