public import HealthWire

/// The bounds one server connection enforces on its peer. The broker derives them from its
/// `BrokerLimits`; the defaults here are for tests and small servers.
public struct ConnectionLimits: Sendable {
    /// Calls running at once on the connection; more are refused, not queued.
    public var callsInFlight: Int
    /// Reply bytes buffered before new requests stop being read. (Stream messages wait for less:
    /// until nothing is buffered, `CallResponder.handOffBytes`.)
    public var outboundPauseBytes: Int
    /// Reply bytes buffered at most; a reply that would pass it closes the connection.
    public var outboundMaxBytes: Int
    /// How long a frame may take from its first byte to its last.
    public var incompleteFrameTimeout: Duration
    /// How long a handler streaming from a synchronous store callback waits for the peer to read
    /// before its call is cancelled (handlers that can suspend wait as long as the call lives;
    /// the writer's send timeout, the same value, closes a connection whose peer reads nothing).
    public var unreadRepliesTimeout: Duration
    /// How long a stream holding shared resources (a large query's slot) waits for its peer to
    /// take its last message before it gives them back (`CallResponder.waitUntilReady`): a reading
    /// peer takes a 1 MiB batch in milliseconds, and parking between every two batches would evict
    /// reading clients' queries when a few run at once. A client that stops reading holds the slot
    /// this long once, then parks.
    public var peerReadGrace: Duration
    /// How long a stream holding shared resources (a large query: its app's slot, a store reader,
    /// a thread and, for those that stream from a store read, a read transaction that keeps the
    /// write-ahead log from being reused) may wait for its peer over its whole answer, counted
    /// from each park. Past it the call ends with RESOURCE_EXHAUSTED (`CallResponder.answerDeadlineStatus`):
    /// `unreadRepliesTimeout` only ends a peer that takes nothing for its span, and one that takes
    /// a little now and then reset it forever (SECURITY.md "Every stream, with a reader that stalls").
    public var answerReadDeadline: Duration

    public init(callsInFlight: Int = WireLimits.maxCallsInFlight, outboundPauseBytes: Int = 1 << 20,
                outboundMaxBytes: Int = 3 * WireLimits.maxFrameBytes, incompleteFrameTimeout: Duration = .seconds(10),
                unreadRepliesTimeout: Duration = .seconds(10), peerReadGrace: Duration = .milliseconds(100),
                answerReadDeadline: Duration = .seconds(60)) {
        self.unreadRepliesTimeout = unreadRepliesTimeout
        self.answerReadDeadline = answerReadDeadline
        self.peerReadGrace = peerReadGrace
        self.callsInFlight = callsInFlight
        self.outboundPauseBytes = outboundPauseBytes
        self.outboundMaxBytes = outboundMaxBytes
        self.incompleteFrameTimeout = incompleteFrameTimeout
    }
}

/// Lets the server's owner refuse a call before its task exists (per-app budgets), and learn
/// when it ended. `admit` runs on the connection's reader thread and must not block; the
/// returned release runs exactly once, when the call's final frame is queued or it is cancelled.
public typealias CallAdmission = @Sendable (_ method: String) -> Result<@Sendable () -> Void, RPCStatus>
