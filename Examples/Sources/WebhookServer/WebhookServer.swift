import Foundation
import Hummingbird
import IMWire

/// `swift run --package-path Examples WebhookServer` — listens on 127.0.0.1:8080.
/// Environment: `HOST`, `PORT`, `PROFILE` (a preset: `tencent`, `tencent-sdk`, `tuikit`, `zim` or `none`),
/// `MAX_BODY_BYTES`.
@main
struct WebhookServer {
    static func main() async throws {
        let environment = ProcessInfo.processInfo.environment
        var settings = WebhookSettings()
        if let name = environment["PROFILE"] {
            guard let profile = ValidationProfile(preset: name) else {
                fatalError("PROFILE must be one of \(ValidationProfile.presets.map(\.name).joined(separator: ", ")), not \(name)")
            }
            settings.profile = profile
        }
        if let limit = environment["MAX_BODY_BYTES"].flatMap(Int.init) { settings.maxBodyBytes = limit }

        let address = BindAddress.hostname(
            environment["HOST"] ?? "127.0.0.1",
            port: environment["PORT"].flatMap(Int.init) ?? 8080
        )
        let app = buildApplication(configuration: ApplicationConfiguration(address: address), settings: settings)
        try await app.runService()
    }
}
