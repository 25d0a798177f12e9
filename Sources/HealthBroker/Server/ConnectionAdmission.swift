import Foundation
import Glibc
import Synchronization

/// Identifies connections accepted on a socket off its one accept thread — one of these per
/// socket, app and admin (`ConnectionRegistry.queueForIdentification`): the accept thread only
/// hands each new descriptor to a bounded queue served by a few worker threads, and refuses it at
/// once when the queue is full. Identifying a peer reads `/proc`, the store's apps (which a key
/// change holds for up to `StoreHandle.admissionWait`) and the installed manifest's executable or
/// the manager tool's path (`ExecutableLookups`, itself time-bounded), and logs a refusal
/// (`RefusedConnectionLog`, which never waits). Before, all of it ran on the accept thread: an
/// installed executable on a FUSE or NFS mount that stopped answering held it, and with it every
/// other app's connection (s19 availability review, finding 6); on the admin socket, until
/// session 22, a manager tool's path did the same to every `healthctl`.
///
/// The workers are started with the first connection and live until `stop`.
final class ConnectionAdmission: Sendable {
    private struct State {
        var queue: [(fd: Int32, admit: @Sendable (Int32) -> Void)] = []
        /// Descriptors being identified now (taken from the queue, not yet served or refused).
        var identifying = 0
        var started = false
        var stopped = false
    }

    let workers: Int
    let capacity: Int
    private let state = Mutex(State())
    private let jobs = DispatchSemaphore(value: 0)

    init(workers: Int = 4, capacity: Int = 64) {
        self.workers = max(1, workers)
        self.capacity = max(1, capacity)
    }

    /// Queues `fd` for a worker, which runs `admit` (identifies and serves or refuses it); false
    /// (the caller refuses it) when `capacity` wait already or the broker is stopping. Never blocks.
    func submit(_ fd: Int32, _ admit: @escaping @Sendable (Int32) -> Void) -> Bool {
        let (queued, start): (Bool, Bool) = state.withLock { state in
            guard !state.stopped, state.queue.count < capacity else { return (false, false) }
            state.queue.append((fd, admit))
            defer { state.started = true }
            return (true, !state.started)
        }
        guard queued else { return false }
        if start {
            for _ in 0..<workers {
                let thread = Thread { [self] in work() }
                thread.name = "healthd-admit"
                thread.start()
            }
        }
        jobs.signal()
        return true
    }

    /// Connections queued or being identified: not yet counted as open connections, so the
    /// broker is not idle while there are any (`Broker.isIdle`).
    var pending: Int { state.withLock { $0.queue.count + $0.identifying } }

    /// Ends the workers; descriptors still queued are closed unanswered.
    func stop() {
        let (queued, started): ([Int32], Bool) = state.withLock { state in
            state.stopped = true
            defer { state.queue = [] }
            return (state.queue.map(\.fd), state.started)
        }
        for fd in queued { close(fd) }
        if started { for _ in 0..<workers { jobs.signal() } }
    }

    private func work() {
        while true {
            jobs.wait()
            let next: (fd: Int32, admit: @Sendable (Int32) -> Void)?? = state.withLock { state in
                if state.stopped { return .none }
                guard !state.queue.isEmpty else { return .some(nil) }
                state.identifying += 1
                return .some(state.queue.removeFirst())
            }
            guard let next else { return }
            guard let (fd, admit) = next else { continue }
            admit(fd)
            state.withLock { $0.identifying -= 1 }
        }
    }
}
