import IMWire

/// `imwire convert --stream`: converts a stream of messages record by record in constant memory.
/// Binary is length-delimited (varint length + message, ``LengthDelimited``); JSON and tim-rest are
/// one message per line (``JSONLines``; blank lines skipped, `\r\n` accepted).
///
/// Input is read in 64 KiB chunks through a ``RecordFramer``; output is written whenever 64 KiB
/// have collected, so memory holds one record, one chunk and one output buffer whatever the stream's
/// length. On standard error: `error: record N: CODE: reason (at byte OFFSET)` for each bad record,
/// `warning: record N: REASON: … (at PATH)` for each key a record's decode skipped, a progress line
/// when standard error is a terminal, and a summary, `converted N records (M bad)`.
struct StreamConversion {
    let from: Format
    let to: Format
    let limits: MessageInput
    let profile: ProfileOption?
    let continueOnError: Bool

    static let chunkSize = 64 * 1024
    static let flushSize = 64 * 1024

    func run(input: CLIInput, output: inout CLIOutput) throws {
        let reader: any CLIChunkReader
        do {
            reader = try input.openChunks(limits.file)
        } catch {
            throw CLIFailure.io(cannot: "read", limits.file, error)
        }
        var sink = StreamSink(live: input.live)
        switch from {
        case .binary:
            try pump(DelimitedFramer(maxRecordSize: limits.maxInputSize), from: reader, to: &sink, &output)
        case .json, .timRest:
            try pump(LineFramer(maxRecordSize: limits.maxInputSize), from: reader, to: &sink, &output)
        }
    }

    /// Reads, frames, converts and writes until the end of the input or a fatal error, then prints
    /// the summary; throws a non-zero exit status if any record was bad.
    private func pump<Framer: RecordFramer>(
        _ framer: Framer, from reader: any CLIChunkReader, to sink: inout StreamSink, _ output: inout CLIOutput
    ) throws {
        var framer = framer
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        var atEnd = false
        var stopped = false
        reading: while !atEnd {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try reader.read(into: $0) }
            } catch {
                try sink.flush(&output)
                sink.finish(&output)
                throw CLIFailure.io(cannot: "read", limits.file, error)
            }
            if count == 0 {
                atEnd = true
            } else {
                chunk.withUnsafeBytes { framer.feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            }
            while true {
                let frame: StreamFrame
                do {
                    guard let next = try framer.next(atEnd: atEnd) else { break }
                    frame = next
                } catch {
                    // A broken frame (length prefix, truncation, a record over the limit): the
                    // records after it cannot be found.
                    sink.bad += 1
                    sink.report(error, output: &output)
                    stopped = true
                    break reading
                }
                var report = DecodingReport()
                let error = convert(frame, framer, into: &sink.buffer, report: &report)
                for skipped in report.skippedKeys { sink.warn("warning: record \(frame.index): \(skipped)\n", output: &output) }
                if let error {
                    sink.bad += 1
                    sink.report(error, output: &output)
                    if !continueOnError {
                        stopped = true
                        break reading
                    }
                } else {
                    sink.records += 1
                }
                if sink.buffer.count >= Self.flushSize { try sink.flush(&output) }
            }
            sink.progress(bytesRead: framer.bytesFed, output: &output)
        }
        try sink.flush(&output)
        sink.finish(&output)
        if stopped || sink.bad > 0 { throw CLIExitStatus(status: 1) }
    }

    /// Decodes one record (the keys skipped go to `report`), checks the profile and appends the
    /// output record; the error about the record if it is bad (then nothing was appended).
    private func convert<Framer: RecordFramer>(
        _ frame: StreamFrame, _ framer: Framer, into buffer: inout [UInt8], report: inout DecodingReport
    ) -> StreamRecordError? {
        do throws(IMWireError) {
            let message = try framer.withBytes(of: frame) { (body) throws(IMWireError) in
                try limits.decode(UnsafeRawBufferPointer(body), as: from, report: &report)
            }
            if let profile {
                let violations = message.validate(profile: profile.profile)
                if !violations.isEmpty {
                    return StreamRecordError(
                        index: frame.index, text: profile.failure(violations, listed: "see imwire validate").message)
                }
            }
            try encode(message, into: &buffer)
            return nil
        } catch {
            return StreamRecordError(frame.streamError(error))
        }
    }

    private func encode(_ message: Message, into buffer: inout [UInt8]) throws(IMWireError) {
        switch to {
        case .binary:
            try LengthDelimited.append(message, to: &buffer, options: BinaryEncodingOptions(maxDepth: limits.maxDepth))
        case .json:
            try JSONLines.append(message, to: &buffer, options: JSONEncodingOptions(maxDepth: limits.maxDepth))
        case .timRest:
            try message.appendTimRESTUTF8Bytes(to: &buffer, options: TIMRESTEncodingOptions(maxDepth: limits.maxDepth))
            buffer.append(UInt8(ascii: "\n"))
        }
    }
}

/// What is wrong with one record, as printed after `error: record N: `.
struct StreamRecordError: Error {
    var index: Int?
    var text: String

    init(index: Int?, text: String) {
        self.index = index
        self.text = text
    }

    /// `CODE: reason (at byte N)`, or `(at PATH)` for an error about a value.
    init(_ error: IMWireError) {
        index = error.recordIndex
        text = "\(error.code.name): \(error.reason)"
        if let path = error.path {
            text += " (at \(path))"
        } else if let offset = error.offset {
            text += " (at byte \(offset))"
        }
    }

    var line: String { "error: " + (index.map { "record \($0): " } ?? "") + text + "\n" }
}

/// The output side of a stream conversion: the output buffer, the counts, and standard error
/// (live, or collected in the result).
struct StreamSink {
    let live: CLILiveOutput?
    var buffer: [UInt8] = []
    var records = 0
    var bad = 0
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant
    private var progressShown = false

    init(live: CLILiveOutput?) {
        self.live = live
        buffer.reserveCapacity(StreamConversion.flushSize + 16 * 1024)
        start = clock.now
        lastDraw = start
    }

    /// Writes the buffered output.
    mutating func flush(_ output: inout CLIOutput) throws {
        guard !buffer.isEmpty else { return }
        if let live {
            do {
                try buffer.withUnsafeBytes { try live.writeStandardOutput($0) }
            } catch {
                throw CLIFailure.io(cannot: "write", nil, error)
            }
        } else {
            output.stdout += buffer
        }
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func report(_ error: any Error, output: inout CLIOutput) {
        let line = switch error {
        case let error as StreamRecordError: error.line
        case let error as IMWireError: StreamRecordError(error).line
        default: "error: \(error)\n"
        }
        writeError(line, &output)
    }

    /// A warning line (a key a record's decode skipped).
    mutating func warn(_ line: String, output: inout CLIOutput) {
        writeError(line, &output)
    }

    /// Redraws the progress line, at most four times a second, when standard error is a terminal.
    mutating func progress(bytesRead: Int, output: inout CLIOutput) {
        guard let live, live.standardErrorIsTerminal else { return }
        let now = clock.now
        guard now - lastDraw >= .milliseconds(250) else { return }
        lastDraw = now
        let seconds = Self.seconds(now - start)
        let rate = seconds > 0 ? Double(bytesRead) / 1e6 / seconds : 0
        live.writeStandardError(
            "\r\(counted(records, "record")) (\(bad) bad), \(Self.decimal(Double(bytesRead) / 1e6)) MB read, \(Self.decimal(rate)) MB/s")
        progressShown = true
    }

    /// Prints the summary line.
    mutating func finish(_ output: inout CLIOutput) {
        writeError("converted \(counted(records, "record")) (\(bad) bad)\n", &output)
    }

    private mutating func writeError(_ text: String, _ output: inout CLIOutput) {
        if let live {
            // Over the progress line, if one is drawn.
            live.writeStandardError((progressShown ? "\r\u{1B}[K" : "") + text)
            progressShown = false
        } else {
            output.stderr += text
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// `value` with one decimal.
    static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
