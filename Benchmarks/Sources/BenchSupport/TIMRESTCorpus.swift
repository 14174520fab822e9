// The tim-rest corpora (`imwire-bench timrest-corpus`, which Scripts/bench runs once per run): of each
// of the corpora chat, random and fixtures, the messages tim-rest carries as they are. Each message's
// timestamp (and those of the messages it merges) is rounded to whole seconds, since tim-rest counts
// seconds; then it is kept when `timRESTUTF8Bytes()` with the default options (nothing lossy) writes it
// and `Message(timRESTUTF8Bytes:)` gives back an equal value. Written to OUT as timrest-NAME.msgs (the
// kept messages' binary), timrest-NAME.json.msgs (their proto3 JSON) and timrest-NAME.timrest.msgs
// (their tim-rest), so that the proto3 JSON rows time the same messages, and the peers (Foundation's
// JSONDecoder, simdjson) read the same files. Harness/timrest_corpus.py adds the shuffled-key variant.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import IMWire

public enum TIMRESTCorpus {
    /// `message` with every timestamp rounded to the nearest whole second, merged messages included.
    static func roundedToSeconds(_ message: Message) -> Message {
        var m = message
        let (q, r) = m.timestampMs.quotientAndRemainder(dividingBy: 1000)
        m.timestampMs = (r >= 500 && q < UInt64.max / 1000 ? q + 1 : q) * 1000
        m.elems = m.elems.map { elem in
            guard case .merger(var merger)? = elem.content else { return elem }
            merger.messages = merger.messages.map(roundedToSeconds)
            var e = elem
            e.content = .merger(merger)
            return e
        }
        return m
    }

    /// The message (rounded) and its tim-rest, or nil when tim-rest does not carry it as it is.
    static func keep(_ binary: [UInt8]) -> (message: Message, timREST: [UInt8])? {
        guard let decoded = try? Message(serializedBytes: binary) else { return nil }
        let message = roundedToSeconds(decoded)
        guard let text = try? message.timRESTUTF8Bytes(),
              let back = try? Message(timRESTUTF8Bytes: text), back == message
        else { return nil }
        return (message, text)
    }

    /// Writes the tim-rest corpus of each of `names` (of ``timRESTBaseNames``) into `out`; one line
    /// each: `timrest-corpus NAME KEPT OF`. Exits 2 on an unreadable corpus or an unwritable file.
    public static func write(names: [String], corpora: String, out: String) {
        for name in names {
            let corpus = loadCorpus(name, corpora)
            var binary: [[UInt8]] = [], json: [[UInt8]] = [], text: [[UInt8]] = []
            for record in corpus.binary {
                guard let (message, timREST) = keep(record) else { continue }
                do {
                    binary.append(try message.serializedBytes())
                    json.append(try message.jsonUTF8Bytes())
                } catch {
                    fail("timrest-\(name): a kept message does not encode: \(error)")
                }
                text.append(timREST)
            }
            let base = "\(out)/timrest-\(name)"
            writeRecords(binary, to: "\(base).msgs")
            writeRecords(json, to: "\(base).json.msgs")
            writeRecords(text, to: "\(base).timrest.msgs")
            emit("timrest-corpus\ttimrest-\(name)\t\(binary.count)\t\(corpus.count)")
        }
    }

    static func writeRecords(_ records: [[UInt8]], to path: String) {
        guard let file = fopen(path, "wb") else { fail("cannot write \(path)") }
        defer { fclose(file) }
        for record in records {
            let n = UInt32(record.count)
            let header: [UInt8] = [UInt8(n & 0xff), UInt8(n >> 8 & 0xff), UInt8(n >> 16 & 0xff), UInt8(n >> 24)]
            guard fwrite(header, 1, 4, file) == 4,
                  record.isEmpty || record.withUnsafeBytes({ fwrite($0.baseAddress, 1, $0.count, file) }) == record.count
            else { fail("error writing \(path)") }
        }
    }
}
