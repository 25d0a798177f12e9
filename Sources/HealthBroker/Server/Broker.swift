import Foundation
import Glibc
import HealthIPC
public import HealthStore
public import Logging

/// The running broker: both listening sockets and their accept threads over one store.
public final class Broker: Sendable {
    public let configuration: BrokerConfiguration
    private let context: BrokerContext
    private let appListener: Int32
    private let adminListener: Int32

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
    /// connection) in a directory only this user can enter.
    /// Takes over `store` (open, and kept open except while a key change reopens it).
    public init(configuration: BrokerConfiguration, store encrypted: EncryptedDatabase, logger: Logger) throws {
        self.configuration = configuration
        do {
            try FileManager.default.createDirectory(atPath: configuration.socketDirectory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o711])
        } catch {
            throw StartError.socketDirectory(configuration.socketDirectory, "\(error.localizedDescription)")
        }
        let changes = ChangeNotifier()
        let store = try StoreHandle(directory: configuration.storeDirectory, opened: encrypted, notifying: changes,
                                    lockAfter: configuration.lockAfter)
        let uid = getuid()
        let registry = ConnectionRegistry(
            configuration: configuration,
            appResolver: AppPeerResolver(store: store, brokerUID: uid),
            managerPolicy: ManagerPeerPolicy(brokerUID: uid, trustedExecutables: configuration.trustedManagerExecutables),
            logger: logger)
        context = BrokerContext(configuration: configuration, store: store, prompts: PromptCenter(maxPendingPerApp: configuration.limits.pendingPromptsPerApp),
                                connections: registry, logger: logger, changes: changes, observers: ObserverRegistry(),
                                backgroundDelivery: BackgroundDeliveryCoordinator(policy: configuration.backgroundDelivery),
                                grantExpiries: GrantExpiryScheduler(store: store, changes: changes, logger: logger),
                                budgets: AppBudgets(limits: configuration.limits),
                                largeQueries: QueryScheduler(limits: configuration.limits),
                                refusals: RefusalLogThrottle(interval: configuration.limits.refusalLogInterval))
        registry.attach(context)
        do {
            adminListener = try UnixSocket.listen(path: configuration.adminSocketPath, mode: 0o600)
            do {
                appListener = try UnixSocket.listen(path: configuration.appSocketPath, mode: 0o666)
            } catch {
                close(adminListener)
                throw error
            }
        } catch {
            throw StartError.socket("\(error)")
        }
    }

    /// Starts accepting on both sockets, each on its own thread.
    public func start() {
        context.backgroundDelivery.start(store: context.store, changes: context.changes, observers: context.observers,
                                         logger: context.logger)
        let registry = context.connections
        let logger = context.logger
        for (listener, accept) in [(appListener, registry.acceptApp), (adminListener, registry.acceptManager)] {
            let thread = Thread {
                while true {
                    do throws(SystemCallError) {
                        accept(try UnixSocket.accept(listener))
                    } catch {
                        if error.errno == EBADF || error.errno == EINVAL { return }  // listener closed: shutting down
                        logger.error("accept failed", metadata: ["error": "\(error)"])
                        if error.errno == EMFILE || error.errno == ENFILE { sleep(1) }
                    }
                }
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

    /// Removes the sockets; open connections end as their peers go.
    public func stop() {
        context.grantExpiries.cancel()
        unlink(configuration.appSocketPath)
        unlink(configuration.adminSocketPath)
        shutdown(appListener, Int32(SHUT_RDWR))
        shutdown(adminListener, Int32(SHUT_RDWR))
    }
}
