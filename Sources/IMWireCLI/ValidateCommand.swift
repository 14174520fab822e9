import ArgumentParser
import IMWire

/// A validation profile named on the command line (`--profile none|tencent|tencent-sdk|tuikit|zim`).
/// A `--profile` value: one of the library's presets (``ValidationProfile/presets``), by name, so a
/// new preset is a CLI option without a second list here.
struct ProfileOption: ExpressibleByArgument {
    /// The library preset.
    let profile: ValidationProfile

    /// The preset's name, as typed.
    var rawValue: String { profile.name }

    init?(argument: String) {
        guard let profile = ValidationProfile(preset: argument) else { return nil }
        self.profile = profile
    }

    static var allValueStrings: [String] { ValidationProfile.presets.map(\.name) }

    /// The names for help texts: `none, tencent, …`.
    static var names: String { allValueStrings.joined(separator: ", ") }

    /// The one-line error (status 1) for a message with `violations` under this profile, naming
    /// the first; `listed` says where the full list went.
    func failure(_ violations: [Violation], listed: String) -> CLIFailure {
        let first = violations[0]
        let count = counted(violations.count, "violation")
        return CLIFailure(
            message: "\(first.code.name): \(count) of profile \(rawValue) (\(listed)); first: \(first.reason) (at \(first.path))",
            status: 1)
    }
}

/// `imwire validate --profile P [--format F] [FILE]`: decodes FILE (or stdin) and checks it against
/// a validation profile.
///
/// A valid message prints nothing and exits 0. Otherwise each violation is one line on stdout, in
/// the order ``Message/validate(profile:)`` returns them:
///
///     CODE PATH limit=LIMIT actual=ACTUAL
///
/// four space-separated columns (paths never hold spaces; a value that is empty or holds whitespace
/// is printed quoted), then one line on stderr, `error: CODE: N violations of profile P …` naming
/// the first, and exit status 1. A decode error is the usual `error: CODE: …` line and status 1.
struct ValidateCommand: IMWireSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a message against a vendor profile's limits and print every violation.",
        discussion: """
            Prints nothing and exits 0 when the message is valid. Otherwise prints one line per violation, \
            'CODE PATH limit=LIMIT actual=ACTUAL', and exits 1. Profiles: tencent (what Tencent Cloud IM's \
            server accepts, REST and webhooks included), tencent-sdk (what the V2TIM SDK builds: tencent plus \
            the SDK's appendElem and text-only @ rules), tuikit (tencent-sdk plus TUIKit's businessID payloads \
            in custom elems), zim (ZEGOCLOUD ZIM), none (only the rules every message must meet: location \
            ranges, one image per type). Without --format the input format is detected as for convert: JSON \
            text is tim-rest or proto3 JSON by its keys (a usage error when they leave it open), anything else \
            binary. Keys the decoder skips are warnings on stderr; --strict refuses the unknown ones.
            """
    )

    @Option(help: "Validation profile: \(ProfileOption.names).")
    var profile: ProfileOption

    @Option(help: "Input format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")); detected from the input when absent.")
    var format: Format?

    @OptionGroup var limits: MessageInput

    var maxNestingDepth: Int { limits.maxDepth }

    func execute(input: CLIInput, output: inout CLIOutput) throws {
        let violations = try limits.validate(profile.profile, as: format, option: "--format", from: input, output: &output)
        guard !violations.isEmpty else { return }
        for violation in violations {
            let line = "\(violation.code.name) \(violation.path)"
                + " limit=\(column(violation.limit)) actual=\(column(violation.actual))\n"
            output.stdout += Array(line.utf8)
        }
        throw profile.failure(violations, listed: "listed on stdout")
    }

    /// A value as one column: as it prints, or quoted (Swift string literal syntax) when it is
    /// empty or holds whitespace or quotes — only a sound or video format copied from the message can.
    private func column(_ value: Violation.Value) -> String {
        let text = value.description
        let needsQuotes = text.isEmpty || text.contains { $0.isWhitespace || $0 == "\"" || $0 == "\\" }
        return needsQuotes ? text.debugDescription : text
    }
}
