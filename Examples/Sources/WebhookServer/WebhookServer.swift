import Foundation
import Hummingbird
import IMWire
import IMWireWebhooks
import Logging

/// `swift run --package-path Examples WebhookServer` — listens on 127.0.0.1:8080.
///
/// Environment: `SDKAPPID` and `CALLBACK_TOKEN` (both set: callback authentication on; `SDKAPPID`
/// alone: only the app ID is checked, for when authentication is off at Tencent), `BANNED_WORDS`
/// (comma-separated), `HOST`, `PORT`, `PROFILE` (a preset: `tencent`, `tencent-sdk`, `tuikit`, `zim`
/// or `none`), `MAX_BODY_BYTES`, `MAX_HEADER_BYTES`, `REQUEST_TIMEOUT` and `IDLE_TIMEOUT` (seconds).
/// A setting that does not parse stops the service before it listens.
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
        settings.maxBodyBytes = integer("MAX_BODY_BYTES", environment) ?? settings.maxBodyBytes
        settings.maxHeaderBytes = integer("MAX_HEADER_BYTES", environment) ?? settings.maxHeaderBytes
        settings.requestTimeout = integer("REQUEST_TIMEOUT", environment).map { .seconds($0) } ?? settings.requestTimeout
        settings.idleTimeout = integer("IDLE_TIMEOUT", environment).map { .seconds($0) } ?? settings.idleTimeout
        settings.moderation = Moderation(list: environment["BANNED_WORDS"] ?? "")

        var logger = Logger(label: "WebhookServer")
        logger.logLevel = environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        switch (environment["SDKAPPID"], environment["CALLBACK_TOKEN"]) {
        case (let appID?, let token):
            guard let sdkAppID = UInt64(appID) else { fatalError("SDKAPPID must be your app's decimal SDKAppID, not \(appID)") }
            do {
                settings.authenticator = CallbackAuthenticator(sdkAppID: sdkAppID, token: try token.map(CallbackToken.init))
            } catch {
                fatalError("CALLBACK_TOKEN: \(error.reason)")
            }
            if token == nil {
                logger.warning("CALLBACK_TOKEN is not set: /webhook checks SdkAppid only and accepts unsigned callbacks")
            }
        case (nil, _?):
            fatalError("CALLBACK_TOKEN is set but SDKAPPID is not: set both to turn callback authentication on")
        case (nil, nil):
            logger.warning("SDKAPPID and CALLBACK_TOKEN are not set: /webhook accepts unsigned callbacks for any app (for trying it out only)")
        }

        let address = BindAddress.hostname(
            environment["HOST"] ?? "127.0.0.1",
            port: integer("PORT", environment) ?? 8080
        )
        let app = buildApplication(configuration: ApplicationConfiguration(address: address), settings: settings)
        try await app.runService()
    }

    /// A non-negative decimal setting, or `nil` when unset; anything else stops the service.
    private static func integer(_ name: String, _ environment: [String: String]) -> Int? {
        guard let text = environment[name] else { return nil }
        guard let value = Int(text), value >= 0 else { fatalError("\(name) must be a non-negative integer, not \(text)") }
        return value
    }
}
