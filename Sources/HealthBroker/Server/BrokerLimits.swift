import Foundation
public import HealthIPC
import HealthWire

/// Every bound healthd puts on one app so that it cannot slow anyone else down — in one place.
/// Each refusal is RESOURCE_EXHAUSTED naming its limit (`message(_:)`); ARCHITECTURE.md
/// ("Per-app budgets") and SECURITY.md list them.
public struct BrokerLimits: Sendable {
    /// Connections one app may hold at once.
    public var connectionsPerApp = 16
    /// Connections of all kinds at once (each holds a reader and a writer thread).
    public var connections = 256
    /// Calls running at once on one connection.
    public var callsInFlightPerConnection = WireLimits.maxCallsInFlight
    /// Calls running at once over all of one app's connections.
    public var callsInFlightPerApp = 64
    /// Large queries (the finite streaming queries, `MethodTable.largeQueries`) running at once
    /// in the whole broker; the rest wait, served round-robin across apps. Kept below the shared
    /// pool's width (one thread per core) so cheap calls always find a thread.
    public var largeQueriesRunning = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
    /// Large queries of one app running at once (its others wait their turn).
    public var largeQueriesRunningPerApp = 1
    /// Large queries parked at once in the whole broker: waiting for their apps to read their
    /// results, having given their slot back (`QueryScheduler`). Each still holds a store reader
    /// (the pool has 5: `CipherDatabaseOpener`) and a thread, so this stays well below the
    /// readers left beside the running queries; one more evicts the query parked longest
    /// (RESOURCE_EXHAUSTED). Each parked query is still bounded by `unreadRepliesTimeout`.
    public var largeQueriesParked = 2
    /// Long-running queries (observers, anchored and statistics-collection updates) one app may
    /// hold open. Real HealthKit apps keep an observer per type they sync (a dozen or two is
    /// common), so the bound sits well above that and below a connection's calls in flight (32).
    public var longRunningQueriesPerApp = 24
    /// Authorization prompts of one app waiting for the user.
    public var pendingPromptsPerApp = 4
    /// Reply bytes buffered per connection before streaming stops and requests stop being read.
    public var outboundPauseBytesPerConnection = 1 << 20
    /// Reply bytes buffered per connection at most; beyond, the connection is closed.
    public var outboundBytesPerConnection = 3 * WireLimits.maxFrameBytes
    /// From the first byte of a frame to its last.
    public var incompleteFrameTimeout: Duration = .seconds(10)
    /// How long a peer may read nothing while replies wait (the socket's send timeout, and the
    /// wait of a query streaming from a store callback).
    public var unreadRepliesTimeout: Duration = .seconds(10)
    /// Refused connections and calls are logged once per peer per interval, with a count.
    public var refusalLogInterval: Duration = .seconds(60)

    public init() {}

    var connectionLimits: ConnectionLimits {
        ConnectionLimits(callsInFlight: callsInFlightPerConnection, outboundPauseBytes: outboundPauseBytesPerConnection,
                         outboundMaxBytes: outboundBytesPerConnection, incompleteFrameTimeout: incompleteFrameTimeout,
                         unreadRepliesTimeout: unreadRepliesTimeout)
    }

    /// The status for a refusal by one of these limits.
    static func exhausted(_ limit: String) -> RPCStatus {
        RPCStatus(.resourceExhausted, "\(limit); try again when some have finished")
    }
}
