import Foundation
public import HealthIPC
import HealthStore
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
    /// (counted in `storeReaders`) and a thread; one more evicts the query parked longest
    /// (RESOURCE_EXHAUSTED). Each parked query is still bounded by `unreadRepliesTimeout`. A query
    /// parks once its client has left its last batch unread for `ConnectionLimits.peerReadGrace`.
    public var largeQueriesParked = 2
    /// Store readers kept for everything that is not a large query (cheap calls, long-running
    /// query updates, the manager's reads) beside the ones large queries may all hold at once.
    /// Cheap calls run on the cooperative pool, one thread per core, so no more of them read at
    /// once; capped at 8 because each reader keeps a page cache (up to 2 MiB) for healthd's
    /// life and a cheap read that waits a moment for another cheap read is fine — what must
    /// never happen is a cheap call waiting for a large query to finish or its client to read.
    public var storeReadersForCheapCalls = min(8, max(2, ProcessInfo.processInfo.activeProcessorCount))
    /// Wake-up checks of long-running queries running at once in the whole broker (`CheckPool`):
    /// each holds a worker thread, a store reader (counted in `storeReaders`) and up to a core
    /// for up to one statement budget; the rest wait, taken round-robin by app, one per app at a
    /// time. Half the cores (1 on two cores, at most 4), so checks woken by many apps' queries at
    /// once leave CPU for everyone's calls; before, each check had a thread of its own and N apps'
    /// checks ran N at once.
    public var checkWorkers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount / 2))
    /// Long-running queries (observers, anchored and statistics-collection updates) one app may
    /// hold open. Real HealthKit apps keep an observer per type they sync (a dozen or two is
    /// common), so the bound sits well above that and below a connection's calls in flight (32).
    public var longRunningQueriesPerApp = 24
    /// Authorization prompts of one app waiting for the user.
    public var pendingPromptsPerApp = 4
    /// Bytes buffered for all apps at once — request frames read and not yet done with, replies
    /// queued and not yet written (`BufferBudget`). Without it only the connection count bounded
    /// them: 256 × (4 MiB being read + 12 MiB of replies), and 64 calls × 4 MiB per app, GiBs.
    /// 256 MiB holds 64 maximal frames at once — eight apps at their full share — which is far
    /// more than the store can absorb (saves commit one at a time) while staying a small part
    /// of a desktop's memory.
    public var bufferedBytes = 256 << 20
    /// One app's share of `bufferedBytes`, over all its connections: 2 maximal (4 MiB) requests
    /// with their unpacked form (`requestBytesPerFrameByte`), or 8 frames of replies.
    /// Beyond it, that app's connections stop being read until its calls finish or it reads its
    /// replies (backpressure; its unread replies past it close the connection); other apps go on.
    public var bufferedBytesPerApp = 32 << 20
    /// What a request frame is counted as in `bufferedBytes`, per byte of the frame: the frame
    /// itself and its unpacked form, which live together until the call ends. Plain samples
    /// unpack to 3.7 times their encoding (`UnpackedSizeTests`); counted at 1 before session 12,
    /// an app's 32 MiB share of saves took ~10 times that in healthd's memory. Denser messages may
    /// take up to `WireLimits.maxUnpackedBytesPerInputByte` and no more (SECURITY.md, "Memory").
    /// A maximal frame counts 16 MiB, so a share holds two.
    public var requestBytesPerFrameByte = 4
    /// What each byte a request's unpacking really takes (`UnpackArena`, claimed as it grows
    /// beyond the room `requestBytesPerFrameByte` set aside) is counted as: the unpacked structs
    /// and the Swift values the call builds from them (records, strings, dictionaries), which are
    /// of about the same size and live together while the call converts them. Before session 13
    /// only the fixed 4× was counted, and a dense request could take 16× + 1 MiB unpacked.
    public var unpackedChargePerByte = 2
    /// Bytes every app may buffer even while the broker is at `bufferedBytes`, so that a small
    /// call never waits for other apps' big ones. At most 256 apps are connected (one connection
    /// each), so this adds at most 64 MiB to the bound.
    public var bufferedBytesFloorPerApp = 256 << 10
    /// Reply bytes buffered per connection before requests stop being read. (A stream message
    /// waits for less: until nothing is buffered, `CallResponder.handOffBytes`.)
    public var outboundPauseBytesPerConnection = 1 << 20
    /// Reply bytes buffered per connection at most; beyond, the connection is closed.
    public var outboundBytesPerConnection = 3 * WireLimits.maxFrameBytes
    /// From the first byte of a frame to its last.
    public var incompleteFrameTimeout: Duration = .seconds(10)
    /// How long a peer may read nothing while replies wait (the socket's send timeout, and the
    /// wait of a query streaming from a store callback).
    public var unreadRepliesTimeout: Duration = .seconds(10)
    /// How long a large query may wait for its client to read, over its whole answer
    /// (`ConnectionLimits.answerReadDeadline`); nil: six unread-replies timeouts (60 s), so a test
    /// that lengthens the stall timeouts lengthens this too. A reading client never waits here:
    /// time counts only once the query has parked (`peerReadGrace`).
    public var answerReadDeadline: Duration?
    /// CPU time one run of one SQLite statement an app's call makes may use without the call
    /// handing a message of its answer (`StatementBudget`); past it the statement stops and the
    /// call ends RESOURCE_EXHAUSTED, telling the app to narrow its predicate. Ten seconds: far
    /// above what a sample, statistics or deletion statement over a person's data costs (a year
    /// of heart rate is tens of milliseconds to a few seconds on two cores), and a bound on how
    /// long one app's statement holds the broker's query slot, a reader, or a drain.
    public var statementCPUBudget: Duration = .seconds(10)
    /// Refused connections and calls are logged once per peer per interval, with a count.
    public var refusalLogInterval: Duration = .seconds(60)
    /// What one app may store (`StorageUse`'s estimate of its objects) unless the user set it a
    /// bound of its own (`healthctl apps storage`). Past it the app's writes are refused.
    public var storedBytesPerApp: Int64 = StorageUse.defaultBytesPerApp
    /// What one app may add to the pending journal while the store is locked (its entries'
    /// bytes), so the unlock merges at most this much of each app's before serving anyone (s19
    /// availability review, finding 7: 200,000 journaled one-sample saves, 23.8 MB, took 17.6 s —
    /// 119 bytes and 88 µs an entry). 8 MiB is at most about 6 s of merge per app, however small
    /// its saves, and about 12 days of a watch saving three types every minute in hourly saves
    /// (~650 KB a day); an app refused here is told to save again once the store is unlocked.
    public var journaledBytesPerApp = 8 << 20

    public init() {}

    /// The store's reader connections (`EncryptedDatabase.open(maximumReaderCount:)`): every
    /// large query running or parked holds one for as long as it streams, so the pool has a
    /// reader for each of them, every wake-up check running holds one (`checkWorkers`), and
    /// `storeReadersForCheapCalls` are kept beside them. GRDB's fixed 5 was below
    /// running + parked on a machine of 6 cores or more, and cheap calls then queued behind
    /// large queries. The one place the pool size is derived; healthd opens (and reopens, after
    /// a key change or an unlock) the store with it.
    public var storeReaders: Int {
        max(1, largeQueriesRunning) + max(0, largeQueriesParked) + max(1, checkWorkers) + max(1, storeReadersForCheapCalls)
    }

    /// The storage bounds, as the store handle takes them.
    var storageBounds: StorageBounds {
        StorageBounds(storedBytesPerApp: storedBytesPerApp, journaledBytesPerApp: journaledBytesPerApp)
    }

    /// The broker's buffer bound, built from the three numbers above.
    func bufferBudget() -> BufferBudget {
        BufferBudget(total: bufferedBytes, perOwner: bufferedBytesPerApp, floor: bufferedBytesFloorPerApp,
                     requestBytesPerFrameByte: requestBytesPerFrameByte, unpackedChargePerByte: unpackedChargePerByte)
    }

    var connectionLimits: ConnectionLimits {
        ConnectionLimits(callsInFlight: callsInFlightPerConnection, outboundPauseBytes: outboundPauseBytesPerConnection,
                         outboundMaxBytes: outboundBytesPerConnection, incompleteFrameTimeout: incompleteFrameTimeout,
                         unreadRepliesTimeout: unreadRepliesTimeout, answerReadDeadline: answerReadDeadline ?? unreadRepliesTimeout * 6)
    }

    /// The status for a refusal by one of these limits.
    static func exhausted(_ limit: String) -> RPCStatus {
        RPCStatus(.resourceExhausted, "\(limit); try again when some have finished")
    }
}
