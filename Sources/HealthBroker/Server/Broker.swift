import Foundation
import Glibc
import HealthIPC
import HealthWire
public import HealthStore
public import Logging

/// The running broker: both listening sockets and their accept threads over one store.
public final class Broker: Sendable {
    public let configuration: BrokerConfiguration
    private let context: BrokerContext
    private let listeners: BrokerListeners
    private let gate = AcceptGate()

    public enum StartError: Error, CustomStringConvertible {
        case socketDirectory(String, String)
        case socket(String)

        public var description: String {
            switch self {
            case let .socketDirectory(path, reason): "cannot use socket directory \(path): \(reason)"
            case let .socket(reason): "cannot create socket: \(reason) (is another healthd running on this directory?)"
            }
        }
    }

    /// Creates the sockets (the admin socket 0600, the app socket 0666 with identity checked per
    /// connection) in a directory only this user can enter — or serves `inherited` ones, which
    /// `BrokerListeners.adopt` checked to be the same.
    /// Takes over `store` (open, and kept open except while a key change reopens it).
    public convenience init(configuration: BrokerConfiguration, store encrypted: EncryptedDatabase, inherited: BrokerListeners? = nil,
                            logger: Logger) throws {
        try self.init(configuration: configuration, inherited: inherited, logger: logger) { changes in
            try StoreHandle(directory: configuration.storeDirectory, opened: encrypted, notifying: changes,
                            lockAfter: configuration.lockAfter, readers: configuration.limits.storeReaders,
                            statementCPUBudget: configuration.limits.statementCPUBudget, storage: configuration.limits.storageBounds,
                            checkWorkers: configuration.limits.checkWorkers)
        }
    }

    /// Serves the store locked from the start (`healthd --start-locked`): apps and grants from the
    /// locked-start snapshot, saves journaled, until `healthctl unlock` opens the store.
    public convenience init(configuration: BrokerConfiguration, startingLocked start: LockedStart,
                            inherited: BrokerListeners? = nil, logger: Logger) throws {
        try self.init(configuration: configuration, inherited: inherited, logger: logger) { changes in
            StoreHandle(directory: configuration.storeDirectory, startingLocked: start, notifying: changes,
                        lockAfter: configuration.lockAfter, readers: configuration.limits.storeReaders,
                        statementCPUBudget: configuration.limits.statementCPUBudget, storage: configuration.limits.storageBounds,
                            checkWorkers: configuration.limits.checkWorkers)
        }
    }

    private init(configuration: BrokerConfiguration, inherited: BrokerListeners?, logger: Logger,
                 storeHandle: (ChangeNotifier) throws -> StoreHandle) throws {
        self.configuration = configuration
        do {
            try FileManager.default.createDirectory(atPath: configuration.socketDirectory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o711])
        } catch {
            throw StartError.socketDirectory(configuration.socketDirectory, "\(error.localizedDescription)")
        }
        let changes = ChangeNotifier()
        let store = try storeHandle(changes)
        let uid = getuid()
        let largeQueries = QueryScheduler(limits: configuration.limits)
        // A query parked on its client would otherwise hold a lock's drain until its timeout.
        store.closing.onChange { closing in largeQueries.storeClosing(closing) }
        let registry = ConnectionRegistry(
            configuration: configuration,
            appResolver: AppPeerResolver(store: store, brokerUID: uid),
            managerPolicy: ManagerPeerPolicy(brokerUID: uid, trustedExecutables: configuration.trustedManagerExecutables),
            logger: logger)
        context = BrokerContext(configuration: configuration, store: store, prompts: PromptCenter(maxPendingPerApp: configuration.limits.pendingPromptsPerApp),
                                perObjectPrompts: PerObjectPromptCenter(maxPendingPerApp: configuration.limits.pendingPromptsPerApp),
                                connections: registry, logger: logger, changes: changes, observers: ObserverRegistry(),
                                backgroundDelivery: BackgroundDeliveryCoordinator(policy: configuration.backgroundDelivery),
                                grantExpiries: GrantExpiryScheduler(store: store, changes: changes, logger: logger),
                                budgets: AppBudgets(limits: configuration.limits),
                                largeQueries: largeQueries,
                                refusals: RefusalLogThrottle(interval: configuration.limits.refusalLogInterval))
        registry.attach(context)
        if let inherited {
            listeners = inherited
        } else {
            do {
                listeners = try BrokerListeners.create(configuration)
            } catch {
                throw StartError.socket("\(error)")
            }
        }
    }

    /// Starts accepting on both sockets, each on its own thread.
    public func start() {
        context.backgroundDelivery.start(store: context.store, changes: context.changes, observers: context.observers,
                                         logger: context.logger)
        let registry = context.connections
        let logger = context.logger
        for (listener, accept) in [(listeners.app, registry.acceptApp), (listeners.admin, registry.acceptManager)] {
            let thread = Thread { [gate] in
                Self.acceptLoop(listener, gate: gate, logger: logger, handle: accept)
            }
            thread.name = "healthd-accept"
            thread.start()
        }
        context.grantExpiries.reschedule()
        let merge = context.store.startupMerge
        if merge.merged > 0 || !merge.damaged.isEmpty {
            logger.notice("merged saves kept while the store was locked", metadata: [
                "merged": "\(merge.merged)", "damaged": "\(merge.damaged.map(\.description))"])
        }
        MergeRefusalLog.write(merge.refused, logger)
        if !merge.budgetStopped.isEmpty {
            logger.warning("journaled deletions by predicate went past their merge budget and changed nothing", metadata: [
                "apps": "\(merge.budgetStopped.keys.sorted())"])
        }
        if let idleLock = context.store.idleLock {
            let store = context.store
            Task.detached { await idleLock.run(store: store, logger: logger) }
        }
        // Writes the "refused ×N" summaries of refusal floods once their interval is over.
        let recorder = AccessLogRecorder(context: context)
        let interval = configuration.limits.refusalLogInterval
        Task.detached {
            while true {
                try? await Task.sleep(for: interval)
                await recorder.appendExpiredRefusalCounts()
            }
        }
        logger.notice("healthd ready", metadata: [
            "store": "\(configuration.storeDirectory)", "app_socket": "\(configuration.appSocketPath)",
            "admin_socket": "\(configuration.adminSocketPath)",
        ])
    }

    /// Accepts on `listener` until the gate closes. Waits in poll(2) rather than in accept(2),
    /// so that an accept only starts inside the gate (`AcceptGate`); the listener is
    /// non-blocking, so a connection another accept took meanwhile costs nothing.
    private static func acceptLoop(_ listener: Int32, gate: AcceptGate, logger: Logger, handle: (Int32) -> Void) {
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        while true {
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            // A second at most between looks at the gate: an exit waits no longer for this thread.
            let count = poll(&ready, 1, 1000)
            if count < 0 && errno != EINTR {
                logger.error("poll on a listening socket failed", metadata: ["error": "\(String(cString: strerror(errno)))"])
                return
            }
            guard count > 0 else {
                if gate.isClosed { return }
                continue
            }
            guard gate.enter() else { return }
            defer { gate.leave() }
            do throws(SystemCallError) {
                handle(try UnixSocket.accept(listener))
            } catch {
                switch error.errno {
                case EAGAIN, ECONNABORTED:
                    continue
                case EBADF, EINVAL:
                    return  // listener shut down: stopping
                case EMFILE, ENFILE:
                    logger.error("accept failed", metadata: ["error": "\(error)"])
                    sleep(1)
                default:
                    logger.error("accept failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// Nothing would be lost by exiting now: no connection but the launch agent's watch, no
    /// background launch owed or awaiting its app, no refusal count waiting for its access-log
    /// entry, and no connection queued on either socket. Cheap; the idle timer calls it often.
    public var isIdle: Bool {
        let agentConnection = context.backgroundDelivery.launches.hasAgent ? 1 : 0
        return context.connections.openConnectionCount <= agentConnection
            && !context.backgroundDelivery.hasPendingWork
            && !context.refusals.hasUncountedRefusals
            && context.connections.admissionsPending == 0
            && !Self.hasQueuedConnection([listeners.app, listeners.admin])
    }

    /// Stops accepting if the broker is idle (`isIdle`), decided under the gate every accept
    /// takes: true means no connection was or will be accepted, and healthd may exit; a client
    /// connecting from now on waits in the listening socket for the next healthd.
    public func closeIfIdle() -> Bool {
        gate.closeIfQuiet { isIdle }
    }

    private static func hasQueuedConnection(_ listeners: [Int32]) -> Bool {
        var fds = listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        return poll(&fds, nfds_t(fds.count), 0) > 0
    }

    /// Stops accepting; ends every app connection and waits (at most `callsTimeout`) for their
    /// calls to finish, so each long-running query's access-log entry is written and no app's
    /// store work is still running when healthd exits, then for each connection's own clean-up
    /// (its peer given `lastWordGrace` to read that healthd stops, then its socket shut down; at
    /// most `cleanupTimeout` more), so no unfinished attachment upload stays staged; writes the
    /// storage counts; removes the sockets healthd created (inherited ones stay: their service
    /// manager listens on them for the next start). Manager connections end as their peers go.
    /// Called from healthd's main thread, never from a task.
    public func stop(callsTimeout: Duration = .seconds(10), lastWordGrace: Duration = .seconds(1),
                     cleanupTimeout: Duration = .seconds(5)) {
        gate.close()
        context.connections.stopAdmitting()
        context.grantExpiries.cancel()
        let connections = context.connections
        let logger = context.logger
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let status = RPCStatus(.unavailable, "healthd is stopping; connect again once it runs")
            let (ended, unfinished) = await connections.endAllConnections(because: status, timeout: callsTimeout)
            if unfinished > 0 {
                logger.warning("healthd stopping: some calls did not finish in time; their access-log entries may be missing",
                               metadata: ["connections": "\(ended)", "unfinished": "\(unfinished)"])
            } else if ended > 0 {
                logger.notice("healthd stopping: app connections ended", metadata: ["count": "\(ended)"])
            }
            done.signal()
        }
        done.wait()
        // Each ended connection's thread drops the uploads it left unfinished once its reader
        // has seen the socket close; before the counts are written, since the uploads count.
        if !connections.finishAppConnectionThreads(grace: lastWordGrace, timeout: cleanupTimeout) {
            logger.warning("healthd stopping: some app connections had not finished their clean-up in time; their unfinished attachment uploads are dropped at the next start")
        }
        // The apps' storage counts, so a clean stop loses none of them (`StorageUse`); skipped
        // while locked or mid key change, whose close wrote them.
        _ = try? context.store.withOpenStoreNow { try $0.persistStorageUse() }
        guard !listeners.inherited else { return }
        unlink(configuration.appSocketPath)
        unlink(configuration.adminSocketPath)
        shutdown(listeners.app, Int32(SHUT_RDWR))
        shutdown(listeners.admin, Int32(SHUT_RDWR))
    }
}
