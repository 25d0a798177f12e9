import Foundation
import Synchronization

/// The access-log entries of refused app connections, on their way to the store without the
/// refusing thread waiting for the writer: a bounded queue that one task drains
/// (`AccessLogRecorder.appendRefusedConnections`). Before, a connection-admission path waited for
/// the writer's commit of each entry (s19 availability review, finding 6), so a writer held by a
/// long commit held the identification of every other connection.
///
/// What is queued has passed the refusal throttle (`RefusalLogThrottle`: one entry per peer and
/// reason per interval, the rest counted into a later entry), so a flood of refused connections
/// fills the queue only with distinct ones. When it is full an entry is dropped and counted;
/// the count is written as an entry of its own before the next one. Each entry keeps the time
/// of its refusal.
final class RefusedConnectionLog: Sendable {
    struct Refusal: Sendable {
        let entry: RefusalLogThrottle.Entry
        let time: Date
    }

    let capacity: Int
    private let stream: AsyncStream<Refusal>
    private let continuation: AsyncStream<Refusal>.Continuation
    private let dropped = Atomic<Int>(0)
    private let queued = Atomic<Int>(0)

    init(capacity: Int = 256) {
        self.capacity = capacity
        (stream, continuation) = AsyncStream.makeStream(of: Refusal.self, bufferingPolicy: .bufferingOldest(capacity))
    }

    /// Queues `entries` (the throttle's answer for one refusal); never waits.
    func offer(_ entries: [RefusalLogThrottle.Entry], at time: Date = Date()) {
        for entry in entries {
            queued.add(1, ordering: .relaxed)
            if case .dropped = continuation.yield(Refusal(entry: entry, time: time)) {
                queued.subtract(1, ordering: .relaxed)
                dropped.add(1, ordering: .relaxed)
            }
        }
    }

    /// Entries queued and not yet written (the broker is not idle while there are any).
    var pending: Int { queued.load(ordering: .relaxed) }

    /// Entries dropped since the last count written.
    var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// Writes what is queued, as it comes, with `write`; for the broker's life.
    func drain(_ write: @Sendable ([Refusal], _ droppedBefore: Int) async -> Void) async {
        for await refusal in stream {
            let lost = dropped.exchange(0, ordering: .relaxed)
            await write([refusal], lost)
            queued.subtract(1, ordering: .relaxed)
        }
    }

    func finish() { continuation.finish() }
}
