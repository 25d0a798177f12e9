public import Foundation

/// The app's access point to the health store, as HealthKit's `HKHealthStore`. Cheap to create:
/// every store in a process shares one connection to healthd, opened on first use.
///
/// The work is split by concern: `+Authorization`, `+Saving` and `+Queries`. Every method
/// reports failures as `HKError` with HealthKit's codes.
public final class HKHealthStore: NSObject, Sendable {
    let connection: BrokerConnection

    override public init() {
        connection = .shared
        super.init()
    }

    /// A store on a given connection (tests use one end of a socket pair).
    init(connection: BrokerConnection) {
        self.connection = connection
        super.init()
    }

    /// Whether healthd can be reached: the descriptor health-sandbox passed in
    /// `OPENHEALTH_SOCKET_FD` is an open socket, or the app socket (`OPENHEALTH_APP_SOCKET`,
    /// else the default path) accepts a connection. Answering it opens the process's shared
    /// connection, which the first store call would open anyway.
    public static func isHealthDataAvailable() -> Bool {
        (try? BrokerConnection.shared.client()) != nil
    }
}
