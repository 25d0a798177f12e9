import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthStore
import HealthWire
import Logging
import Synchronization

/// Accepted connections: establishes each one's identity before any frame is read, enforces the
/// connection limits, and runs each connection on its own thread.
final class ConnectionRegistry: Sendable {
    private struct Counts {
        var total = 0
        var perApp: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())
    private let configuration: BrokerConfiguration
    private let appResolver: AppPeerResolver
    private let managerPolicy: ManagerPeerPolicy
    private let logger: Logger
    /// Set once the context exists (it holds this registry, so it cannot be passed to init).
    private let contextBox = Mutex<BrokerContext?>(nil)
    private let directConnections = DirectConnectionTracker()

    init(configuration: BrokerConfiguration, appResolver: AppPeerResolver, managerPolicy: ManagerPeerPolicy, logger: Logger) {
        self.configuration = configuration
        self.appResolver = appResolver
        self.managerPolicy = managerPolicy
        self.logger = logger
    }

    func attach(_ context: BrokerContext) {
        contextBox.withLock { $0 = context }
    }

    var connectedAppCount: Int {
        counts.withLock { $0.perApp.values.filter { $0 > 0 }.count }
    }

    /// Every connection being served, apps' and the manager tools' (the agent's included).
    var openConnectionCount: Int {
        counts.withLock { $0.total }
    }

    /// A connection accepted on the app socket: credential binding.
    ///
    /// The connection is tracked before its admission is checked: a `deny-direct` committed
    /// after the check then finds it in `revalidateDirectConnections`, and one committed before
    /// makes the check refuse it — no order lets it slip through.
    func acceptApp(_ fd: Int32) {
        let peer: PeerCredentials
        do {
            peer = try PeerCredentials.of(fd)
        } catch {
            logger.warning("app connection refused", metadata: ["reason": "\(error)"])
            refuse(fd, RPCStatus(.unauthenticated, "healthd could not identify this process", healthKitCode: .errorAuthorizationDenied))
            return
        }
        guard let token = directConnections.add(executable: peer.executable, socket: fd) else {
            refuse(fd, RPCStatus(.unavailable, "healthd is out of descriptors; try again"))
            return
        }
        let app: AppManifest
        do {
            app = try appResolver.resolve(peer)
        } catch let refusal as AppPeerResolver.Refusal {
            directConnections.remove(token)
            logger.warning("app connection refused", metadata: ["reason": "\(refusal)"])
            if let context = contextBox.withLock({ $0 }) {
                AccessLogRecorder(context: context).appendRefusedConnectionBlocking(reason: refusal.logDetail)
            }
            refuse(fd, RPCStatus(.unauthenticated, "\(refusal)", healthKitCode: .errorAuthorizationDenied))
            return
        } catch {
            directConnections.remove(token)
            logger.warning("app connection refused", metadata: ["reason": "\(error)"])
            refuse(fd, RPCStatus(.unauthenticated, "healthd could not identify this process", healthKitCode: .errorAuthorizationDenied))
            return
        }
        directConnections.admitted(token, as: app.id)
        do {
            try serve(fd, as: .app(app), table: MethodTable.app) { [directConnections] in directConnections.remove(token) }
        } catch {
            directConnections.remove(token)
            refuse(fd, error)
        }
    }

    /// Applies the direct-connection rule (`AppPeerResolver.admit`) again to every open direct
    /// connection and ends those it no longer admits. Called after every change that can
    /// withdraw one (`healthctl apps deny-direct`, a reinstall); returns how many were ended.
    @discardableResult
    func revalidateDirectConnections(in database: HealthDatabase) -> Int {
        var ended = 0
        for (token, entry) in directConnections.snapshot {
            // Still being admitted (no app yet): ended unless the rule admits its executable now.
            let admitted = entry.executable.flatMap { try? AppPeerResolver.admit(executable: $0, in: database) }
            guard admitted == nil || (entry.appID != nil && admitted?.id != entry.appID) else { continue }
            directConnections.end(token)
            ended += 1
            logger.notice("direct connection ended: no longer admitted", metadata: ["app": "\(entry.appID ?? "?")"])
        }
        return ended
    }

    /// A connection accepted on the admin socket.
    func acceptManager(_ fd: Int32) {
        let peer: PeerCredentials
        do {
            peer = try PeerCredentials.of(fd)
        } catch {
            refuse(fd, RPCStatus(.unauthenticated, "healthd could not identify this process"))
            return
        }
        if let refusal = managerPolicy.refusal(for: peer) {
            logger.warning("admin connection refused", metadata: ["reason": "\(refusal)"])
            refuse(fd, RPCStatus(.permissionDenied, refusal))
            return
        }
        do {
            try serve(fd, as: .manager(peer), table: MethodTable.manager)
        } catch {
            refuse(fd, error)
        }
    }

    /// Launch binding: a socket pair whose broker end is served as `app`; returns the other end.
    func bindLaunched(_ app: AppManifest) throws -> Int32 {
        let (brokerEnd, clientEnd) = try UnixSocket.pair()
        do {
            try serve(brokerEnd, as: .app(app), table: MethodTable.app)
        } catch {
            close(brokerEnd)
            close(clientEnd)
            throw HKError(.errorInvalidArgument, "\(error.statusMessage)")
        }
        return clientEnd
    }

    /// Serves `fd` on a thread of its own; `ended` runs on that thread once the connection is over.
    private func serve(_ fd: Int32, as caller: Caller, table: [String: MethodTable.Handler],
                       ended: @escaping @Sendable () -> Void = {}) throws(RPCStatus) {
        let appID = caller.appManifest?.id
        // The broker attaches its context before it accepts anything; a connection that somehow
        // arrives first is refused rather than crashing healthd.
        guard let context = contextBox.withLock({ $0 }) else {
            throw RPCStatus(.unavailable, "healthd is still starting; try again")
        }
        try counts.withLock { (counts) throws(RPCStatus) in
            guard counts.total < configuration.limits.connections else {
                throw RPCStatus(.resourceExhausted, "healthd has \(configuration.limits.connections) connections open; try again later")
            }
            if let appID {
                let current = counts.perApp[appID, default: 0]
                guard current < configuration.limits.connectionsPerApp else {
                    throw BrokerLimits.exhausted("at most \(configuration.limits.connectionsPerApp) connections per app")
                }
                counts.perApp[appID] = current + 1
            }
            counts.total += 1
        }
        let limits = configuration.limits
        UnixSocket.setSendTimeout(fd, seconds: Int(limits.unreadRepliesTimeout.components.seconds))
        let dispatcher = CallDispatcher(context: context, table: table, caller: caller)
        let connectionID = CallerConnection.next()
        let logger = self.logger
        // An app's calls over all its connections count against one budget; the manager's do not.
        let budgets = context.budgets
        let admission: CallAdmission = { _ in
            guard let appID else { return .success({}) }
            do throws(RPCStatus) {
                return .success(try budgets.claim(.callsInFlight, app: appID))
            } catch {
                return .failure(error)
            }
        }
        let thread = Thread { [self] in
            let connection = ServerConnection(fd: fd, limits: limits.connectionLimits, admission: admission)
            if let failure = connection.serve(answerNow: dispatcher.answerNow, { call in
                await CallerConnection.$current.withValue(connectionID) { await dispatcher.dispatch(call) }
            }) {
                logger.warning("connection closed for a protocol violation", metadata: ["app": "\(appID ?? "manager")", "reason": "\(failure)"])
            }
            counts.withLock { counts in
                counts.total -= 1
                if let appID { counts.perApp[appID, default: 1] -= 1 }
            }
            ended()
        }
        thread.name = "healthd-connection"
        thread.start()
    }

    /// Sends a connection-level status (call id 0) and closes: the peer's calls fail with it.
    private func refuse(_ fd: Int32, _ error: any Error) {
        let status = (error as? RPCStatus) ?? RPCStatus(.unavailable, error.statusMessage)
        // On the accept thread: a peer that is refused and reads nothing must not hold it.
        UnixSocket.setSendTimeout(fd, seconds: 1)
        let connection = FrameConnection(fd: fd)
        try? connection.send(Frame(callID: 0, kind: .endOfStream, status: status))
        connection.close()
    }
}

private extension Error {
    var statusMessage: String { (self as? RPCStatus)?.message ?? "\(self)" }
}
