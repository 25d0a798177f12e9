import Foundation
import HealthIPC
import Synchronization

/// The one way a connection's identity looks up a path a trusted source names — an installed
/// manifest's executable (`AppPeerResolver`), a manager tool (`ManagerPeerPolicy`) — to check it is
/// the file the peer runs (`PeerCredentials.runs`): on a thread of its own, waited for at most
/// `timeout`, one lookup per path at a time. The path is the user's choice, but the file system
/// under it may stop answering (a FUSE server that hangs, an NFS server gone): a `stat` there
/// waits for as long as it does, and before (s19 availability review, finding 6) it waited on a
/// socket's accept thread, holding every other peer's connection.
///
/// A lookup that does not answer in time refuses its connection (`NotAnswering`); its
/// thread stays blocked in the kernel until the file system answers. Connections of the same path
/// meanwhile share that lookup — refused at once once it is past its time — so a peer that keeps
/// connecting costs one blocked thread, not one per connection; at most `maximumPaths` different
/// paths are looked up at once, beyond which connections are refused until one answers.
final class ExecutableLookups: Sendable {
    /// The path's file system did not answer within `timeout`: each policy says so in its refusal.
    struct NotAnswering: Error {
        let executable: String
        let timeout: Duration
    }

    /// One lookup of one path, shared by the connections that need it while it runs.
    private final class Lookup: Sendable {
        let started = ContinuousClock.now
        private let result = Mutex<ExecutableFile??>(nil)
        private let done = DispatchGroup()

        init() { done.enter() }

        func finish(_ file: ExecutableFile?) {
            result.withLock { $0 = .some(file) }
            done.leave()
        }

        /// The file at the path (nil: none), or nil if not known by `deadline`.
        func wait(until deadline: ContinuousClock.Instant) -> ExecutableFile?? {
            let left = ContinuousClock.now.duration(to: deadline)
            let seconds = max(0, Double(left.components.seconds) + Double(left.components.attoseconds) * 1e-18)
            guard done.wait(timeout: .now() + seconds) == .success else { return nil }
            return result.withLock { $0 }
        }
    }

    let timeout: Duration
    let maximumPaths: Int
    private let inFlight = Mutex<[String: Lookup]>([:])

    init(timeout: Duration = .seconds(5), maximumPaths: Int = 16) {
        self.timeout = timeout
        self.maximumPaths = maximumPaths
    }

    /// Whether `peer` runs the executable at `path` (`PeerCredentials.runs`), the path looked up
    /// within `timeout`. Throws `NotAnswering` when it was not.
    func runs(_ peer: PeerCredentials, _ path: String) throws(NotAnswering) -> Bool {
        // What needs no file system first: the peer's own claim.
        guard peer.executablePath == path, let runs = peer.executableFile else { return false }
        let taken: (Lookup, Bool)? = inFlight.withLock { lookups in
            if let running = lookups[path] { return (running, false) }
            guard lookups.count < maximumPaths else { return nil }
            let lookup = Lookup()
            lookups[path] = lookup
            return (lookup, true)
        }
        guard let (lookup, mine) = taken else { throw NotAnswering(executable: path, timeout: timeout) }
        if mine {
            let thread = Thread { [self] in
                let file = ExecutableFile(path: path)
                inFlight.withLock { _ = $0.removeValue(forKey: path) }
                lookup.finish(file)
            }
            thread.name = "healthd-lookup"
            thread.start()
        }
        // Waited for until the lookup's own time is up: a connection that comes while it has
        // hung already is refused at once.
        guard let file = lookup.wait(until: lookup.started + timeout) else {
            throw NotAnswering(executable: path, timeout: timeout)
        }
        return file == runs
    }
}
