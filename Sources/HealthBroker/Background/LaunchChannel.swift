import HealthModel
import HealthWire
import Synchronization

/// The way from healthd to the one `health-sandbox agent` that launches apps for it. healthd
/// cannot start processes (its seccomp filter forbids exec), so a launch is a message on the
/// agent's WatchLaunches stream; the agent, a trusted manager tool, runs the app exactly as
/// `health-sandbox run` would.
///
/// One agent at a time: two would launch every app twice. Nothing queues here — launches that
/// find no agent stay due in `BackgroundSchedule` until one attaches. A request sent to the
/// agent is kept until the agent reports its outcome (ReportLaunchOutcome); only the attached
/// agent's own process may report, and only for requests it was sent.
final class LaunchChannel: Sendable {
    /// The attached agent: its connection's process, where its requests go, and those handed
    /// to it but not yet confirmed sent.
    private struct Agent {
        let id: UInt64
        let pid: Int32
        let requests: AsyncStream<LaunchRequest>.Continuation
        var unconfirmed: [UInt64: LaunchRequest] = [:]
        /// Sent, awaiting the agent's outcome.
        var sent: [UInt64: LaunchRequest] = [:]
    }

    private struct State {
        var agent: Agent?
        var nextID: UInt64 = 1
    }

    private let state = Mutex(State())

    /// Attaches the agent of process `pid`; returns its id (for `detach`) and the stream of
    /// launches for it. Refuses a second agent while one is attached.
    func attach(pid: Int32) throws(RPCStatus) -> (id: UInt64, requests: AsyncStream<LaunchRequest>) {
        let (requests, continuation) = AsyncStream<LaunchRequest>.makeStream()
        let id = try state.withLock { (state) throws(RPCStatus) -> UInt64 in
            if let agent = state.agent {
                throw RPCStatus(.failedPrecondition,
                                "another health-sandbox agent (pid \(agent.pid)) is already watching for launches; stop it first")
            }
            let id = state.nextID
            state.nextID += 1
            state.agent = Agent(id: id, pid: pid, requests: continuation)
            return id
        }
        return (id, requests)
    }

    /// Detaches agent `id` (its call ended); a later attach may take its place. Returns the
    /// requests it was handed but never confirmed sending (they did not reach it) and those it
    /// never reported an outcome for (it may have died before launching): both are due again.
    func detach(_ id: UInt64) -> [LaunchRequest] {
        let detached = state.withLock { state -> Agent? in
            guard state.agent?.id == id else { return nil }
            defer { state.agent = nil }
            return state.agent
        }
        detached?.requests.finish()
        return detached.map { Array($0.unconfirmed.values) + Array($0.sent.values) }?.sorted { $0.requestID < $1.requestID } ?? []
    }

    var hasAgent: Bool { state.withLock { $0.agent != nil } }

    /// Hands `request` to the attached agent's stream; false when none is attached.
    func offer(_ request: LaunchRequest) -> Bool {
        state.withLock { state in
            guard state.agent != nil, case .enqueued = state.agent!.requests.yield(request) else { return false }
            state.agent!.unconfirmed[request.requestID] = request
            return true
        }
    }

    /// Agent `id`'s call sent `requestID` to it.
    func confirmSent(_ requestID: UInt64, by id: UInt64) {
        state.withLock { state in
            guard state.agent?.id == id, let request = state.agent!.unconfirmed.removeValue(forKey: requestID) else { return }
            state.agent!.sent[requestID] = request
        }
    }

    /// Why a reported outcome is refused.
    enum OutcomeRefusal: Error {
        /// The reporter is not the attached agent's process.
        case notTheAgent
        /// No request with that id awaits an outcome from this agent.
        case unknownRequest
    }

    /// Takes the outcome of a request reported by process `pid`: the request it answers (nil for
    /// `exited`, which may concern an app launched before this agent or healthd started).
    func takeOutcome(_ outcome: LaunchOutcome, from pid: Int32) throws(OutcomeRefusal) -> LaunchRequest? {
        try state.withLock { (state) throws(OutcomeRefusal) -> LaunchRequest? in
            guard let agent = state.agent, agent.pid == pid else { throw .notTheAgent }
            if outcome.kind == .exited { return nil }
            guard let request = agent.sent[outcome.requestID], request.appID == outcome.appID else { throw .unknownRequest }
            state.agent!.sent[outcome.requestID] = nil
            return request
        }
    }
}
