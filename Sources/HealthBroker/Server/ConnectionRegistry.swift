import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthStore
import HealthWire
import Logging
import Synchronization

/// Accepted connections: establishes each one's identity before any frame is read, enforces the
/// connection limits, runs each connection on its own thread, and ends an app's connections when
/// the user withdraws its identity (`endConnections(of:because:)`, `revalidateDirectConnections`).
final class ConnectionRegistry: Sendable {
    private struct Counts {
        var total = 0
        var perApp: [String: Int] = [:]
        /// healthd is stopping (`stopAdmitting`): no connection is served from now on, so none
        /// starts after `endAllConnections` took the ones to end.
        var stopping = false
    }

    private let counts = Mutex(Counts())
    private let configuration: BrokerConfiguration
    private let appResolver: AppPeerResolver
    private let managerPolicy: ManagerPeerPolicy
    private let logger: Logger
    /// Set once the context exists (it holds this registry, so it cannot be passed to init).
    private let contextBox = Mutex<BrokerContext?>(nil)
    private let appConnections = AppConnectionTracker()
    /// Bytes buffered for apps' requests and replies, bounded broker-wide with a share per app.
    let buffers: BufferBudget
    /// Open app connections and whether each began an attachment upload, dropped when it ends.
    let uploads = ConnectionUploads()
    /// New connections waiting to be identified, off the accept threads: one queue per socket, so
    /// apps filling theirs do not refuse the user's manager tools. The admin socket's peers are
    /// the user's few tools (and the launch agent): fewer workers and less room.
    private let appAdmission = ConnectionAdmission()
    private let managerAdmission = ConnectionAdmission(workers: 2, capacity: 16)
    /// Refused connections' access-log entries, written without the refusing thread waiting.
    let refusedConnections = RefusedConnectionLog()
    /// App connections' threads, from their start until their clean-up is done (their unfinished
    /// attachment uploads dropped): an orderly stop waits for them (`finishAppConnectionThreads`).
    private let appConnectionThreads = DispatchGroup()

    init(configuration: BrokerConfiguration, appResolver: AppPeerResolver, managerPolicy: ManagerPeerPolicy, logger: Logger) {
        self.configuration = configuration
        self.appResolver = appResolver
        self.managerPolicy = managerPolicy
        self.logger = logger
        buffers = configuration.limits.bufferBudget()
    }

    func attach(_ context: BrokerContext) {
        contextBox.withLock { $0 = context }
        let recorder = AccessLogRecorder(context: context)
        Task.detached { [refusedConnections] in
            await refusedConnections.drain { refusals, dropped in
                await recorder.appendRefusedConnections(refusals, droppedBefore: dropped)
            }
        }
    }

    /// Connections accepted and not yet served or refused, and refusals not yet logged: the
    /// broker is not idle while there are any.
    var admissionsPending: Int { appAdmission.pending + managerAdmission.pending + refusedConnections.pending }

    /// Stops identifying new connections (the broker stops): queued ones are closed, and one
    /// being identified now is refused rather than served.
    func stopAdmitting() {
        counts.withLock { $0.stopping = true }
        appAdmission.stop()
        managerAdmission.stop()
        refusedConnections.finish()
    }

    var connectedAppCount: Int {
        counts.withLock { $0.perApp.values.filter { $0 > 0 }.count }
    }

    /// Every connection being served, apps' and the manager tools' (the agent's included).
    var openConnectionCount: Int {
        counts.withLock { $0.total }
    }

    /// A connection accepted on the app socket, on its accept thread (`queueForIdentification`).
    func acceptApp(_ fd: Int32) {
        queueForIdentification(fd, on: appAdmission) { [self] fd in admitApp(fd) }
    }

    /// A connection accepted on the admin socket, on its accept thread (`queueForIdentification`).
    func acceptManager(_ fd: Int32) {
        queueForIdentification(fd, on: managerAdmission) { [self] fd in admitManager(fd) }
    }

    /// The one rule for both sockets: an accept thread hands each connection to a worker that
    /// identifies it (`ConnectionAdmission`), or refuses it at once when too many wait for one.
    /// The accept thread touches no file and waits for no store or writer: a peer whose identity
    /// takes long (an installed executable or a manager tool on a mount that stopped answering, a
    /// key change holding the store) cannot hold the connections of others. Before, the admin
    /// socket's accept thread identified its peers itself: a manager tool's path on a hung mount
    /// held every `healthctl` until the mount answered (s19 availability review, finding 6).
    private func queueForIdentification(_ fd: Int32, on admission: ConnectionAdmission,
                                        _ identify: @escaping @Sendable (Int32) -> Void) {
        if !admission.submit(fd, identify) {
            refuse(fd, RPCStatus(.unavailable, "healthd has \(admission.capacity) connections waiting to be identified; try again shortly"))
        }
    }

    /// Credential binding, on a connection-admission worker.
    ///
    /// The connection is tracked before its admission is checked: a `deny-direct` committed
    /// after the check then finds it in `revalidateDirectConnections`, and one committed before
    /// makes the check refuse it — no order lets it slip through.
    private func admitApp(_ fd: Int32) {
        let peer: PeerCredentials
        do {
            peer = try PeerCredentials.of(fd, inspecting: appResolver.brokerUID)
        } catch {
            logger.warning("app connection refused", metadata: ["reason": "\(error)"])
            refuse(fd, RPCStatus(.unauthenticated, "healthd could not identify this process", healthKitCode: .errorAuthorizationDenied))
            return
        }
        guard let token = appConnections.add(.direct(executable: peer.executablePath), socket: fd) else {
            refuse(fd, RPCStatus(.unavailable, "healthd is out of descriptors; try again"))
            return
        }
        let app: AppManifest
        do {
            app = try appResolver.resolve(peer)
        } catch let refusal as AppPeerResolver.Refusal {
            appConnections.remove(token)
            logger.warning("app connection refused", metadata: ["reason": "\(refusal)"])
            if let context = contextBox.withLock({ $0 }) {
                AccessLogRecorder(context: context).queueRefusedConnection(reason: refusal.logDetail)
            }
            refuse(fd, RPCStatus(.unauthenticated, "\(refusal)", healthKitCode: .errorAuthorizationDenied))
            return
        } catch {
            appConnections.remove(token)
            logger.warning("app connection refused", metadata: ["reason": "\(error)"])
            refuse(fd, RPCStatus(.unauthenticated, "healthd could not identify this process", healthKitCode: .errorAuthorizationDenied))
            return
        }
        // Admitted from a store read before a removal or reinstall of the app that ended its
        // connections: refused as the app's next connection would be.
        guard appConnections.admitted(token, as: app.id) else {
            appConnections.remove(token)
            refuse(fd, IdentityEnding.changed(appID: app.id).status)
            return
        }
        do {
            try serve(fd, as: .app(app), table: MethodTable.app, tracked: token)
        } catch {
            appConnections.remove(token)
            refuse(fd, error)
        }
    }

    /// The revocation epoch to read before looking an app up to bind a connection to it
    /// (`bindLaunched(_:lookedUpAt:)`; see `AppConnectionTracker`).
    var revocationEpoch: UInt64 { appConnections.epoch }

    /// Ends every connection of `appID`, launch-bound and direct, because the user ended its
    /// identity: each peer is told why (every call it has open fails with `reason.status`), no
    /// call of theirs starts from now on, and a connection bound from a store read before this
    /// call is refused. Returns once every call that was running on them has finished (or was
    /// given up on after a bound, which is logged), so nothing the app asked for is still under
    /// way — the caller may then change the store knowing no call of the old identity races it.
    /// Returns how many connections were ended.
    @discardableResult
    func endConnections(of appID: String, because reason: IdentityEnding) async -> Int {
        let servers = appConnections.revoke(appID, with: reason.status)
        for server in servers where !(await server.end(with: reason.status)) {
            logger.warning("an ended connection's calls did not finish in time", metadata: ["app": "\(appID)"])
        }
        if !servers.isEmpty {
            logger.notice("app connections ended", metadata: ["app": "\(appID)", "count": "\(servers.count)", "reason": "\(reason)"])
        }
        return servers.count
    }

    /// Ends every app connection because healthd is stopping: each peer is told so, every call
    /// it has open is cancelled, and this returns once they have all finished — each long-running
    /// query has then written its access-log entry (`CallDispatcher.logAccess`) — or after
    /// `timeout` (the connections are ended together, so that is the whole wait). Before this,
    /// healthd exited with its calls running: their entries were never written, and their store
    /// work ran on while the process tore down under it (s21 privacy review, finding 3).
    /// Returns how many connections were ended and how many did not finish in time.
    func endAllConnections(because status: RPCStatus, timeout: Duration) async -> (ended: Int, unfinished: Int) {
        let servers = appConnections.endAll(with: status)
        let unfinished = await withTaskGroup(of: Bool.self) { group in
            for server in servers { group.addTask { await server.end(with: status, timeout: timeout) } }
            var unfinished = 0
            for await finished in group where !finished { unfinished += 1 }
            return unfinished
        }
        return (servers.count, unfinished)
    }

    /// Waits until every app connection's thread has ended — after `endAllConnections`, each
    /// one's clean-up: the attachment uploads it began and did not finish are dropped from the
    /// store (`dropUploads`). A thread ends once its connection's writer has sent the peer its last
    /// word and closed; after `grace`, the connections still open are shut down (a peer that does
    /// not read would otherwise hold its writer, and the clean-up, for `unreadRepliesTimeout`), and
    /// the wait goes on for at most `timeout`. Before, an orderly stop exited once the calls had
    /// finished, and the threads' clean-up raced the exit: an upload open at SIGTERM on a
    /// connection that did not read stayed staged until the next start dropped it. False if some
    /// were still running at the end.
    func finishAppConnectionThreads(grace: Duration, timeout: Duration) -> Bool {
        func wait(_ duration: Duration) -> Bool {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
            return appConnectionThreads.wait(timeout: .now() + seconds) == .success
        }
        if wait(grace) { return true }
        appConnections.shutDownAll()
        return wait(timeout)
    }

    /// Applies the direct-connection rule (`AppPeerResolver.admit`) again to every open direct
    /// connection and ends those it no longer admits. Called after every change that can
    /// withdraw one (`healthctl apps deny-direct`, a reinstall); returns how many were ended.
    @discardableResult
    func revalidateDirectConnections(in database: HealthDatabase) -> Int {
        var ended = 0
        for (token, entry) in appConnections.snapshot {
            guard case let .direct(executable) = entry.kind else { continue }
            // Still being admitted (no app yet): ended unless the rule admits its executable now.
            let admitted = executable.flatMap { try? AppPeerResolver.admit(executable: $0, in: database) }
            guard admitted == nil || (entry.appID != nil && admitted?.id != entry.appID) else { continue }
            let status = IdentityEnding.directWithdrawn(appID: entry.appID ?? "this app").status
            // Called inside the store's write: the calls are not waited for (one of them may wait
            // for this very write); they are cancelled and the peer is told why.
            if let server = appConnections.end(token, with: status) { Task { await server.end(with: status) } }
            ended += 1
            logger.notice("direct connection ended: no longer admitted", metadata: ["app": "\(entry.appID ?? "?")"])
        }
        return ended
    }

    /// Identifies a manager tool's connection, on a connection-admission worker.
    private func admitManager(_ fd: Int32) {
        let peer: PeerCredentials
        do {
            peer = try PeerCredentials.of(fd, inspecting: managerPolicy.brokerUID)
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
    /// `epoch` is `revocationEpoch` as read before `app` was looked up: if the app was removed or
    /// reinstalled since, the binding is refused (its manifest is no longer the app's).
    func bindLaunched(_ app: AppManifest, lookedUpAt epoch: UInt64) throws -> Int32 {
        let (brokerEnd, clientEnd) = try UnixSocket.pair()
        guard let token = appConnections.add(.launched, appID: app.id, socket: brokerEnd, epoch: epoch) else {
            close(brokerEnd)
            close(clientEnd)
            throw HKError(.errorInvalidArgument, IdentityEnding.changed(appID: app.id).status.message)
        }
        do {
            try serve(brokerEnd, as: .app(app), table: MethodTable.app, tracked: token)
        } catch {
            appConnections.remove(token)
            close(brokerEnd)
            close(clientEnd)
            throw HKError(.errorInvalidArgument, "\(error.statusMessage)")
        }
        return clientEnd
    }

    /// Serves `fd` on a thread of its own. An app's connection is `tracked` (its
    /// `AppConnectionTracker` token), forgotten once it is over.
    private func serve(_ fd: Int32, as caller: Caller, table: [String: MethodTable.Handler],
                       tracked token: UInt64? = nil) throws(RPCStatus) {
        // Every app connection, launch-bound or direct, is served from here: an installed
        // manifest that no longer passes the checks an install makes today (installed before
        // a rule) is the identity of nothing until it is installed again.
        if let manifest = caller.appManifest, let stale = InstalledManifestCheck.refusal(for: manifest) { throw stale }
        let appID = caller.appManifest?.id
        // The broker attaches its context before it accepts anything; a connection that somehow
        // arrives first is refused rather than crashing healthd.
        guard let context = contextBox.withLock({ $0 }) else {
            throw RPCStatus(.unavailable, "healthd is still starting; try again")
        }
        try counts.withLock { (counts) throws(RPCStatus) in
            guard !counts.stopping else { throw RPCStatus(.unavailable, "healthd is stopping; connect again once it runs") }
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
        // An app's requests and replies count against its share of the buffer bound; the manager's
        // do not (it is the user's own tool, like the other budgets).
        let connection = ServerConnection(fd: fd, limits: limits.connectionLimits, admission: admission,
                                          buffers: appID.map { BufferAccount(budget: buffers, owner: $0) })
        // Ended between its lookup and now (a removal that found it not yet served): ended now.
        if let token, let ending = appConnections.serving(token, by: connection) {
            Task { await connection.end(with: ending) }
        }
        let appConnections = self.appConnections
        if appID != nil {
            uploads.opened(connectionID)
            appConnectionThreads.enter()
        }
        let thread = Thread { [self] in
            defer { if appID != nil { appConnectionThreads.leave() } }
            if let failure = connection.serve(answerNow: dispatcher.answerNow, { call in
                await CallerConnection.$current.withValue(connectionID) { await dispatcher.dispatch(call) }
            }) {
                logger.warning("connection closed for a protocol violation", metadata: ["app": "\(appID ?? "manager")", "reason": "\(failure)"])
            }
            // Before the connection stops counting: once `healthctl status` shows it gone, so are
            // its unfinished uploads.
            if let appID, uploads.ended(connectionID) {
                dropUploads(of: connectionID, appID: appID, context: context)
            }
            counts.withLock { counts in
                counts.total -= 1
                if let appID { counts.perApp[appID, default: 1] -= 1 }
            }
            if let token { appConnections.remove(token) }
        }
        thread.name = "healthd-connection"
        thread.start()
    }

    /// Drops the attachment uploads `connection` began and did not finish (it ended mid-upload),
    /// waiting on the connection's own thread, not a pooled one. A store that is locked or failing
    /// keeps them until the app's next begin finds them stale or healthd next opens the store;
    /// that is logged.
    private func dropUploads(of connection: UInt64, appID: String, context: BrokerContext) {
        let done = DispatchSemaphore(value: 0)
        let logger = self.logger
        Task {
            defer { done.signal() }
            do {
                let dropped = try await context.store.withDatabase(changing: "dropping an ended connection's attachment uploads") { database in
                    try database.attachments.dropUploads(connection: connection)
                }
                if dropped > 0 { logger.info("attachment uploads dropped with their connection", metadata: ["app": "\(appID)", "count": "\(dropped)"]) }
            } catch {
                logger.notice("an ended connection's attachment uploads stay until they are stale",
                              metadata: ["app": "\(appID)", "reason": "\(error)"])
            }
        }
        done.wait()
    }

    /// Sends a connection-level status (call id 0) and closes: the peer's calls fail with it.
    private func refuse(_ fd: Int32, _ error: any Error) {
        let status = (error as? RPCStatus) ?? RPCStatus(.unavailable, error.statusMessage)
        // On the accept thread or an admission worker: a peer that is refused and reads nothing
        // must not hold it.
        UnixSocket.setSendTimeout(fd, seconds: 1)
        let connection = FrameConnection(fd: fd)
        try? connection.send(Frame(callID: 0, kind: .endOfStream, status: status))
        connection.close()
    }
}

private extension Error {
    var statusMessage: String { (self as? RPCStatus)?.message ?? "\(self)" }
}
