import IMWire
import IMWireCLI
import Testing

/// tim-rest on the command line: `imwire convert` reads and writes it, and what it cannot carry ends
/// in one error line (the codec itself: IMWireTests/TIMRESTTests.swift).
@Suite struct TIMRESTCLITests {
    @Test func convertReadsAndWritesTIMREST() {
        let rest = Array(#"{"GroupId":"g","Random":1,"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]}"#.utf8)
        let json = CLITests.run(["convert", "--from", "tim-rest", "--to", "json"], stdin: rest)
        #expect(json.status == 0)
        #expect(json.stdout == Array(#"{"groupId":"g","random":"1","elems":[{"text":{"text":"hi"}}]}"#.utf8) + [0x0A])
        let back = CLITests.run(["convert", "--from", "json", "--to", "tim-rest"], stdin: Array(json.stdout.dropLast()))
        #expect(back.status == 0)
        #expect(back.stdout == rest + [0x0A])
        let pretty = CLITests.run(["convert", "--from", "tim-rest", "--to", "tim-rest", "--pretty"], stdin: rest)
        #expect(pretty.status == 0 && pretty.stdout.contains(0x0A) && pretty.stdout.count > rest.count + 20)
    }

    @Test func convertReportsWhatTIMRESTCannotCarryAsOneErrorLine() throws {
        let tips = try Message(target: .groupID("g"), elems: [.groupTips(GroupTipsElem(type: .join))]).serializedBytes()
        let result = CLITests.run(["convert", "--from", "binary", "--to", "tim-rest"], stdin: tips)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: not_representable: ") && result.stderr.hasSuffix("(at elems[0].group_tips)\n"), "\(result.stderr)")
        let bad = CLITests.run(["convert", "--from", "tim-rest", "--to", "json"], stdin: Array(#"{"MsgBody":[{"MsgType":"TIMTipElem","MsgContent":{}}]}"#.utf8))
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("error: unknown_msg_type: ") && bad.stderr.hasSuffix("(at MsgBody[0].MsgType)\n"), "\(bad.stderr)")
    }
}
