// IMWire's own operations, which no peer and no earlier model has: the message view, the routing
// view and the string builder the decoders use. (The harness for commit 02d391d has a stub of this file instead:
// Benchmarks/Harness/eager.sh.)

@_spi(Benchmarks) import IMWire

enum IMWireExtras {
    static func pass(_ operation: Operation, _ corpus: Corpus) throws -> (() throws -> Void)? {
        switch operation {
        case .binaryViewRead:
            let inputs = corpus.binaryRaw
            return {
                for input in inputs {
                    blackHole(try Message.withView(serializedBytes: input) { IMWireViewWalk.message($0) })
                }
            }
        case .jsonViewRead:
            let inputs = corpus.jsonRaw
            return {
                for input in inputs {
                    blackHole(try Message.withView(jsonUTF8Bytes: input) { IMWireViewWalk.message($0) })
                }
            }
        case .binaryValidateView:
            let inputs = corpus.binaryRaw
            return {
                for input in inputs { blackHole(try Message.validate(serializedBytes: input, profile: .tencent)) }
            }
        case .binaryDecodeValidate:
            let inputs = corpus.binaryRaw
            return {
                for input in inputs { blackHole(try Message(serializedBytes: input).validate(profile: .tencent)) }
            }
        case .binarySizeTraverse:
            // What an encoder that writes front to back from `traverse` must do before it writes: size
            // every message (BinarySizeVisitor), against the back-to-front writer's single pass.
            let models = try corpus.binary.map { try Message(serializedBytes: $0) }
            return {
                models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(_BinarySizing.sizeThroughTraverse(of: models[index])) }
                }
            }
        case .binaryRoute:
            // What a relay reads before forwarding the bytes: msg id, sender, target, timestamp, seq and
            // the kind of every elem. The strings are read in place as UTF-8 (the view's `…UTF8`
            // properties), as a relay hashing or comparing IDs would: no String, no allocation.
            let inputs = corpus.binary
            return {
                for input in inputs {
                    try Message.withRoutingView(serializedBytes: input) { view in
                        blackHole(view.msgIDUTF8)
                        blackHole(view.senderUTF8)
                        blackHole(view.targetIDUTF8)
                        blackHole(view.timestampMs)
                        blackHole(view.seq)
                        for kind in view.elemKinds { blackHole(kind) }
                    }
                }
            }
        case .binaryViewRoute:
            // What `binaryRoute` reads, through the message view: a relay that also looks inside the elems
            // pays this (the view checks every field of the message) and no more to read them.
            let inputs = corpus.binary
            return {
                for input in inputs {
                    try Message.withView(serializedBytes: input) { view in
                        view.msgID.withUTF8 { blackHole($0.count) }
                        view.sender.withUTF8 { blackHole($0.count) }
                        switch view.target {
                        case .receiver(let id)?, .groupID(let id)?, .roomID(let id)?: id.withUTF8 { blackHole($0.count) }
                        case nil: break
                        }
                        blackHole(view.timestampMs)
                        blackHole(view.seq)
                        for elem in view.elems { blackHole(elem.kind) }
                    }
                }
            }
        case .stringBuild, .stringBuildFallback:
            // Each string's bytes and whether they are ASCII, which the decoder learns while validating.
            let strings = try corpus.binary.flatMap { try stringsOf(Message(serializedBytes: $0)) }
                .map { (bytes: Array($0.utf8), isASCII: $0.utf8.allSatisfy { $0 < 0x80 }) }
            let fallback = operation == .stringBuildFallback
            return {
                for string in strings {
                    string.bytes.withUnsafeBufferPointer { buffer in
                        blackHole(_UTF8StringBuilding.string(buffer, isASCII: string.isASCII, fallback: fallback))
                    }
                }
            }
        default:
            return nil
        }
    }
}

extension IMWireExtras {
    /// The pass of an operation of this file's, and what it handles when that is not the corpus's
    /// binary or JSON (tim-rest: the messages made from the corpus, once).
    static func workload(
        _ operation: Operation, _ corpus: Corpus
    ) throws -> (pass: () throws -> Void, size: (messages: Int, bytes: Int)?)? {
        switch operation {
        case .timRESTDecodeRead where !corpus.timREST.isEmpty:
            // A tim-rest corpus: its records, read in place.
            let inputs = corpus.timRESTRaw
            let pass = {
                for input in inputs { blackHole(IMWireWalk.message(try Message(timRESTUTF8Bytes: input))) }
            }
            return (pass, (inputs.count, corpus.timRESTBytes))
        case .timRESTDecodeRead:
            let inputs = try timREST(corpus)
            let pass = {
                for input in inputs { blackHole(IMWireWalk.message(try Message(timRESTUTF8Bytes: input))) }
            }
            return (pass, (inputs.count, inputs.reduce(0) { $0 + $1.count }))
        case .timRESTEncodeBuilt:
            // Values built in code, as the proto3 JSON encode of built values; MB/s counts the corpus's
            // tim-rest (the canonical form the encoder writes).
            guard !corpus.timREST.isEmpty else { return nil }
            let models = try corpus.binary.map { IMWireBuild.message(try Message(serializedBytes: $0)) }
            let pass = {
                try models.withUnsafeBufferPointer { models in
                    for index in models.indices { blackHole(try models[index].timRESTUTF8Bytes()) }
                }
            }
            return (pass, (models.count, corpus.timRESTBytes))
        default:
            return try pass(operation, corpus).map { ($0, nil) }
        }
    }

    /// The walk's digest through the message view ("view": the same sum as "binary" when the view
    /// reads what a decode gives).
    static func digests(_ corpus: Corpus) throws -> [(format: String, sum: UInt64)] {
        var sum: UInt64 = 0
        for input in corpus.binary { sum &+= try Message.withView(serializedBytes: input) { IMWireViewWalk.message($0) } }
        return [("view", sum)]
    }
}

/// The tim-rest JSON of each message of the corpus, lossy: what tim-rest cannot carry (msg id,
/// timestamp, some elem fields) is left out; a message it cannot carry at all (nesting beyond its
/// depth limit) is skipped.
func timREST(_ corpus: Corpus) throws -> [[UInt8]] {
    corpus.binary.compactMap {
        try? Message(serializedBytes: $0).timRESTUTF8Bytes(options: TIMRESTEncodingOptions(allowsLossyConversion: true))
    }
}

/// Every `String` in a value, found by reflection (the model types reflect their fields).
func stringsOf(_ value: Any) -> [String] {
    if let string = value as? String { return [string] }
    return Mirror(reflecting: value).children.flatMap { stringsOf($0.value) }
}
