public import HealthIPC
public import HealthModel

/// Who is calling, as established from the connection when it was accepted — never from a
/// message. Every method handler receives it; nothing else says who the caller is.
public enum Caller: Sendable {
    /// An installed app, bound by launch (health-sandbox) or by its peer credentials.
    case app(AppManifest)
    /// The user's manager (healthctl or health-sandbox on the admin socket).
    case manager(PeerCredentials)

    var appManifest: AppManifest? {
        if case let .app(manifest) = self { return manifest }
        return nil
    }
}
