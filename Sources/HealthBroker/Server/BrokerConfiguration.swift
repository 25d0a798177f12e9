public import Foundation

/// Where the broker keeps its store and sockets, and whom it trusts on the admin socket.
public struct BrokerConfiguration: Sendable {
    public var storeDirectory: String
    public var socketDirectory: String
    /// Executables allowed on the admin socket (by default healthctl and health-sandbox next to healthd).
    public var trustedManagerExecutables: Set<String>
    /// healthd's own executable (`/proc/self/exe`), sent with each launch binding with the
    /// manager tools: no folder an app may write may hold it (`LaunchBinding.executables`).
    public var brokerExecutable: String?
    /// Per-app budgets and connection bounds (BrokerLimits.swift).
    public var limits = BrokerLimits()
    /// Background delivery's acknowledgement timeout, backoff and suspension.
    public var backgroundDelivery = BackgroundDeliveryPolicy()
    /// Lock the store after this long without reads or saves (`healthd --lock-after`); nil: never.
    public var lockAfter: Duration?
    /// Started by a service manager on its sockets (systemd socket activation), and how long
    /// it stays without work before exiting (nil: until stopped). For `healthctl status`.
    public var service = ServiceMode()

    public struct ServiceMode: Sendable {
        public var socketActivated = false
        public var idleExit: Duration?
        /// When this healthd started.
        public var started = Date()
        /// The Landlock ABI healthd walled its files in with at start; 0: not walled in, for
        /// `landlockMissingReason`.
        public var landlockABI = 0
        public var landlockMissingReason = "not reported by this healthd"
        public init() {}
    }

    public init(storeDirectory: String, socketDirectory: String, trustedManagerExecutables: Set<String>) {
        self.storeDirectory = storeDirectory
        self.socketDirectory = socketDirectory
        self.trustedManagerExecutables = trustedManagerExecutables
    }

    /// The manager tools installed next to the broker's own executable.
    public static func siblingTools(of brokerExecutable: String) -> Set<String> {
        let directory = (brokerExecutable as NSString).deletingLastPathComponent
        return [directory + "/healthctl", directory + "/health-sandbox"]
    }

    public var appSocketPath: String { socketDirectory + "/app.sock" }
    public var adminSocketPath: String { socketDirectory + "/admin.sock" }
}

public enum BrokerVersion {
    public static let string = "0.1.0"
}
