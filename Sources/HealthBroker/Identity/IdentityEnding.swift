import HealthModel
import HealthWire

/// Why healthd ended an app's connections: the user withdrew the identity they were served
/// under. Each case's `status` is what the app is told — the last word on its connection, so
/// every call it has open (long-running queries included) fails with it, and the SDK raises
/// `HKError(.errorAuthorizationDenied)`.
///
/// Why that error: Apple's HealthKit has no "your app was removed" error (an app the user
/// deletes is not running), and reports revoked *read* access by no error at all — data simply
/// stops matching (§7.2). `errorAuthorizationDenied` is HealthKit's code for "the user has not
/// given the app permission", and the identity ending here takes away every permission at once,
/// read and share, for every type — so the status says nothing about any one type's read
/// decision. gRPC's UNAUTHENTICATED says the rest: the credentials the connection was bound
/// with are no longer valid, as for a peer refused at connect time (`ConnectionRegistry`).
enum IdentityEnding: Sendable, CustomStringConvertible {
    /// `healthctl apps remove`.
    case removed(appID: String)
    /// A reinstall replaced the manifest the connection was served under, or a connection was
    /// bound from a lookup that such a change overtook.
    case changed(appID: String)
    /// `healthctl apps deny-direct`, or a reinstall naming another executable, for a direct
    /// (credential-bound) connection.
    case directWithdrawn(appID: String)

    var status: RPCStatus {
        RPCStatus(.unauthenticated, message, healthKitCode: .errorAuthorizationDenied)
    }

    private var message: String {
        switch self {
        case let .removed(appID):
            "\(appID.prefix(128)) was removed by the user (healthctl apps remove): its connections, queries and grants ended; it must be installed again and ask for authorization again"
        case let .changed(appID):
            "\(appID.prefix(128)) was reinstalled or removed while this connection was open; start the app again"
        case let .directWithdrawn(appID):
            "\(appID.prefix(128)) may no longer connect to healthd directly (healthctl apps deny-direct, or it was reinstalled with another executable); launch it with `health-sandbox run`"
        }
    }

    var description: String {
        switch self {
        case .removed: "removed"
        case .changed: "reinstalled"
        case .directWithdrawn: "direct connections withdrawn"
        }
    }
}
