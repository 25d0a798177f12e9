import Glibc
import HealthIPC
import HealthModel
import HealthStore
import HealthWire
import Logging

/// Looks a call up in the caller's table, runs it, and turns every outcome into exactly one
/// status on the wire. Decoding errors, HealthKit errors, cancellation and unexpected failures
/// each map to their gRPC code; unexpected failures are logged without payloads and reported
/// to the peer as INTERNAL with no detail.
struct CallDispatcher: Sendable {
    let context: BrokerContext
    let table: [String: MethodTable.Handler]
    let caller: Caller

    func dispatch(_ call: IncomingCall) async {
        guard let handler = table[call.method] else {
            let status = RPCStatus(.unimplemented, "method \(call.method.prefix(128)) is not served on this socket")
            await logAccess(call.method, CallAccessReport(), failure: status)
            call.responder.fail(status, streaming: false)
            return
        }
        guard let app = caller.appManifest else { return await run(handler, call) }
        // What the call's statements may compute (StatementBudget): ended with the call — its
        // client cancelled or left — and charged anew each time the call hands a message.
        let budget = StatementBudget(cpuPerStatement: context.configuration.limits.statementCPUBudget,
                                     draining: context.store.closing.draining)
        call.responder.onEachMessageHanded { budget.answerHanded() }
        await withTaskCancellationHandler {
            await StatementBudget.$current.withValue(budget) { await dispatch(call, handler, app: app) }
        } onCancel: {
            budget.end()
        }
    }

    /// `dispatch` for an app's call, its budgets claimed before the handler touches the store.
    private func dispatch(_ call: IncomingCall, _ handler: MethodTable.Handler, app: AppManifest) async {
        if let exceeded = storageBoundRefusal(call, app: app) {
            await AccessLogRecorder(context: context).appendRefusal(exceeded.refusal(method: call.method), app: app, types: [])
            let streaming = if case .stream = handler { true } else { false }
            return call.responder.fail(exceeded.status, streaming: streaming)
        }
        // Budgets are claimed before the handler touches the store; the manager has none.
        switch MethodTable.cost(of: call.method, payload: call.payload) {
        case .cheap:
            await run(handler, call)
        case let .permissionPrompt(kind):
            // Checked again, atomically, when the prompt is made (`ask`); this early check spares
            // the store a flood of requests that could only be refused (a per-object request looks
            // up the app's installation before it is filed; its candidates are read only when the
            // user lists it, `PerObjectCandidates`). Each kind is
            // checked against its own queue: before, a per-object request was checked against
            // the type-wide prompts, so an app at its per-object limit had every further request
            // do that read and only then be refused (`AppResourceCapEndToEndTests`).
            let refusal = switch kind {
            case .typeWide: await context.prompts.refusalAtLimit(app: app.id)
            case .perObject: await context.perObjectPrompts.refusalAtLimit(app: app.id)
            }
            if let refusal { return call.responder.fail(refusal, streaming: false) }
            await run(handler, call)
        case .longRunningQuery:
            let release: @Sendable () -> Void
            do {
                release = try context.budgets.claim(.longRunningQueries, app: app.id)
            } catch {
                return call.responder.fail(error, streaming: true)
            }
            defer { release() }
            // Each of its store visits — the first answer, every recomputation — runs in a query
            // slot of the app's, in turn with every app's large queries (`ScheduledStoreVisits`).
            await ScheduledStoreVisits.$current.withValue(ScheduledStoreVisits(scheduler: context.largeQueries, app: app.id)) {
                await runUntilLocked(handler, call)
            }
        case .largeQuery:
            do {
                try await context.largeQueries.run(app: app.id) { (slot: QuerySlot) in
                    // Parks the slot while the query waits for this app to read (QueryScheduler).
                    call.responder.whileWaitingForPeer(slot)
                    await run(handler, call)
                }
            } catch {
                let streaming = if case .stream = handler { true } else { false }
                call.responder.fail(RPCStatus(.cancelled, "cancelled while waiting for a query slot"), streaming: streaming)
            }
        }
    }

    /// The storage bounds' admission, the one check every app call passes before it runs (on
    /// either path: the reader thread's `commitNow` leaves a refused call to `dispatch`, which
    /// refuses and logs it, rate-limited and charged to nobody). Memory lookups only.
    /// - While the store is locked, a call that may journal anything (`MethodTable.journalsWhileLocked`:
    ///   a write, or just its access-log entry) is refused once the app has journaled its bound
    ///   since the lock (`JournalUse`). Calls admitted before that each add their entries, so the
    ///   unlock merges at most the bound plus the app's calls in flight.
    /// - A call that may store data (`MethodTable.storesData`) is refused when the app's count
    ///   (`StorageUse`) and the request's bytes would pass the app's bound. The count is the
    ///   writer's, kept as it commits. Calls admitted together may pass the bound by what they
    ///   store (at most the app's request-buffer share in flight, `BrokerLimits`).
    private func storageBoundRefusal(_ call: IncomingCall, app: AppManifest) -> StorageBoundExceeded? {
        if let locked = context.store.gate.lockedNow, MethodTable.journalsWhileLocked(call.method) {
            let bound = context.store.journalBytesPerApp
            let journaled = locked.journaled.used(by: app.id)
            if journaled >= bound { return StorageBoundExceeded(bound: .journaled, used: Int64(journaled), limit: Int64(bound)) }
        }
        guard MethodTable.storesData(call.method),
              let excess = context.store.storage.excess(appID: app.id, adding: call.payload.count) else { return nil }
        return StorageBoundExceeded(bound: .stored, used: excess.used, limit: excess.bound)
    }

    /// A long-running query ends when the store locks (DESIGN.md §7.8), whatever it is waiting
    /// for (a change, an acknowledgement, a slow reader): the lock cancels it and its status is
    /// errorDatabaseInaccessible. One place for observer, anchored and collection queries alike.
    private func runUntilLocked(_ handler: MethodTable.Handler, _ call: IncomingCall) async {
        let ending = LockEnding()
        let signal = context.store.lockSignal
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await LockEnding.$current.withValue(ending) { await run(handler, call) } }
            group.addTask {
                await signal.untilLocked()
                if !Task.isCancelled { ending.mark() }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Answers `call` on the calling thread — the connection's reader — when its method is
    /// `.immediate`, cheap, not access-logged, and the store admits it without waiting
    /// (`StoreHandle.withGrantsNow`). True when it answered. Otherwise (any other method, a key
    /// change under way, or the handler threw) it has done nothing visible, and the call takes
    /// the ordinary path, `dispatch`, which waits, reports the failure and logs a refusal.
    ///
    /// Why: for a short call the work is a memory lookup, and the task, the pool thread it runs
    /// on and the hand-offs between them cost several times that (issue 17). The reader thread
    /// may block (it is this connection's own), and the reply leaves by `OutboundQueue`'s
    /// direct path, so nothing here waits on the peer: a slow or stalled client still holds
    /// only its own threads. Identity is the connection's `caller`; the per-connection and
    /// per-app call limits were checked before this (`ServerConnection.start`).
    func answerNow(_ call: IncomingCall) -> Bool {
        if case let .write(_, onReader)? = table[call.method] { return commitNow(call, onReader) }
        guard case let .immediate(answer)? = table[call.method],
              MethodTable.accessLogged[call.method] == nil,
              caller.appManifest == nil || MethodTable.cost(of: call.method, payload: call.payload) == .cheap
        else { return false }
        let reply: MethodTable.Reply?
        do {
            reply = try context.store.withGrantsNow { try answer(context, caller, call.payload, $0) }
        } catch {
            return false
        }
        guard let reply else { return false }
        respond(call, with: reply)
        return true
    }

    /// Commits a `.write` call on the calling thread — the connection's reader — and answers it,
    /// when the call is an app's, cheap, alone on its connection, and the store is open now
    /// (`StoreHandle.withOpenStoreNow`). True when it answered. Otherwise (another call of the
    /// connection in flight, the store locked or changing keys, a refusal or any failure, after
    /// which nothing was written) the call takes the ordinary path, `dispatch`, which journals a
    /// locked store's save, reports the failure and logs a refusal.
    ///
    /// Why: a lone save's reply otherwise waits for three thread hand-offs (reader → pool →
    /// group-commit drain → pool), each a wake-up of tens of µs on a loaded machine, around a
    /// commit of a few hundred (issue 17, Benchmarks/README.md "Session 10: durable save"). The
    /// reader thread is this connection's own and may block; it never belongs to the cooperative
    /// pool, whose threads must not wait on the writer (GroupCommitQueue). Only a call alone on
    /// its connection waits here, so a peer's other calls never queue behind this commit. The
    /// entry is in the save's transaction, so nothing is left for `logAccess` to append.
    /// The largest write decoded on the reader thread. The reader path is for the lone durable
    /// save, whose cost is its hand-offs; a large batch gains nothing there, and decoding it on
    /// each connection's reader thread — and again on the ordinary path when it is refused —
    /// spread a flood's maximal saves over every reader's allocator arena (healthd's peak under
    /// BrokerMemoryBoundEndToEndTests rose from 284–376 to 414–548 MiB).
    static let readerCommitPayloadLimit = 64 * 1_024

    private func commitNow(_ call: IncomingCall,
                           _ write: (BrokerContext, Caller, [UInt8], HealthDatabase, CallAccessReport) throws -> MethodTable.Reply) -> Bool {
        guard call.aloneOnConnection, let app = caller.appManifest, call.payload.count <= Self.readerCommitPayloadLimit,
              MethodTable.cost(of: call.method, payload: call.payload) == .cheap, storageBoundRefusal(call, app: app) == nil
        else { return false }
        let report = accessReport(for: call.method)
        let reply: MethodTable.Reply?
        do {
            reply = try context.store.withOpenStoreNow { try write(context, caller, call.payload, $0, report) }
        } catch {
            return false
        }
        guard let reply else { return false }
        respond(call, with: reply)
        return true
    }

    private func respond(_ call: IncomingCall, with reply: MethodTable.Reply) {
        if let descriptor = reply.descriptor {
            call.responder.respond(reply.payload, passing: descriptor)
            close(descriptor)
        } else {
            call.responder.respond(reply.payload)
        }
    }

    private func run(_ handler: MethodTable.Handler, _ call: IncomingCall) async {
        switch handler {
        case let .unary(run), let .write(run, _):
            await runUnary(call) { try await run(context, caller, call.payload) }
        case let .immediate(answer):
            // The ordinary path of an immediate method: a unary call that borrows the grants,
            // waiting for the store like any other call.
            await runUnary(call) { [context, caller] in
                try await context.store.withGrants { try answer(context, caller, call.payload, $0) }
            }
        case let .stream(run):
            let report = accessReport(for: call.method)
            do {
                try await CallAccessReport.$current.withValue(report) {
                    try await run(context, caller, call.payload, call.responder)
                }
                await logAccess(call.method, report, failure: nil)
                call.responder.finish()
            } catch {
                let status = status(for: error, method: call.method)
                await logAccess(call.method, report, failure: status, error: error)
                call.responder.fail(status, streaming: true)
            }
        }
    }

    private func runUnary(_ call: IncomingCall, _ run: () async throws -> MethodTable.Reply) async {
        let report = accessReport(for: call.method)
        do {
            let reply = try await CallAccessReport.$current.withValue(report) { try await run() }
            await logAccess(call.method, report, failure: nil)
            respond(call, with: reply)
        } catch {
            let status = status(for: error, method: call.method)
            await logAccess(call.method, report, failure: status, error: error)
            call.responder.fail(status, streaming: false)
        }
    }

    /// The one place calls reach the access log. The entry is written before the reply, so a
    /// client that saw the reply finds it in the log.
    /// - An app's call the broker refused (`CallRefusal`: no permission, invalid argument, a
    ///   method apps may not call) is logged as `refused`, whatever the method.
    /// - Otherwise a method the table logs, whose handler got far enough to report what it
    ///   touched. A call that failed after reporting (a query cancelled mid-stream) is logged
    ///   with what it had done and its status code.
    /// - A storage bound's refusal (`StorageBoundExceeded`, `error`) is a refusal too, logged as
    ///   one (rate-limited): while the store is locked an entry per refused save would itself
    ///   grow the pending journal the bound is there to bound.
    private func logAccess(_ method: String, _ report: CallAccessReport, failure: RPCStatus?, error: (any Error)? = nil) async {
        let refusal = (error as? StorageBoundExceeded)?.refusal(method: method) ?? failure.flatMap { CallRefusal(method: method, status: $0) }
        if let refusal, let app = caller.appManifest {
            await AccessLogRecorder(context: context).appendRefusal(refusal, app: app, types: report.recorded?.types ?? [])
            return
        }
        guard let action = MethodTable.accessLogged[method], let facts = report.recorded,
              !report.entryAlreadyCommitted else { return }
        await AccessLogRecorder(context: context).append(
            method: method, action: action, caller: caller, facts: facts,
            outcome: failure.map { "ended with \($0.code)" })
    }

    /// The call's report, knowing the entry's actor and action, so a write can commit its entry
    /// in its own transaction (`CallAccessReport.entryForWrite`).
    private func accessReport(for method: String) -> CallAccessReport {
        CallAccessReport(actor: AccessLogRecorder.actor(of: caller), action: MethodTable.accessLogged[method])
    }

    private func status(for error: any Error, method: String) -> RPCStatus {
        // A statement the call's budget stopped fails with whatever SQLite's interrupt became on
        // its way up; what stopped it is the answer.
        // An HKError says more (a deletion cut short by the drain says how far it got).
        if !(error is HKError), let stop = StatementBudget.current?.stop { return Self.status(for: stop) }
        switch error {
        case let error as StorageBoundExceeded:
            return error.status
        case let error as HKError:
            return RPCStatus(error)
        case let error as RPCStatus:
            return error
        case let error as WireDecodeError:
            if case .unpacksTooLarge = error { return RPCStatus(HKError(.errorDataSizeExceeded, "bad request: \(error)")) }
            // The request is fine; the app holds too much at once. RESOURCE_EXHAUSTED like the
            // other budgets, with the HealthKit code that says it was the data's size.
            if case .unpackedPastShare = error {
                return RPCStatus(.resourceExhausted, "\(error)", healthKitCode: .errorDataSizeExceeded)
            }
            return RPCStatus(.invalidArgument, "bad request: \(error)", healthKitCode: .errorInvalidArgument)
        case is CancellationError:
            if LockEnding.current?.isMarked == true { return RPCStatus(StoreHandle.lockedError) }
            return RPCStatus(.cancelled, "cancelled")
        default:
            if let failure = StoreIOFailure(error, directory: context.store.directory, readOnlyReason: context.store.readOnlyReason) {
                // Disk full or an I/O error: nothing was written; the app may retry later,
                // and the log names the cause for the person who can free space.
                context.logger.error("store write failed", metadata: ["method": "\(method)", "cause": "\(failure.logDescription)"])
                return RPCStatus(.unavailable, failure.appMessage, healthKitCode: .errorDatabaseInaccessible)
            }
            context.logger.error("call failed", metadata: ["method": "\(method)", "error": "\(type(of: error))"])
            return RPCStatus(.internal, "internal error in healthd; see its log", healthKitCode: .errorDatabaseInaccessible)
        }
    }

    /// The answer to a call whose statement its budget stopped (`StatementBudget.Stop`).
    static func status(for stop: StatementBudget.Stop) -> RPCStatus {
        switch stop {
        case .overBudget, .overBudgetInAll:
            // The request asks for more work than one call may do: the app can narrow it.
            RPCStatus(.resourceExhausted, stop.message, healthKitCode: .errorInvalidArgument)
        case .storeDraining:
            RPCStatus(HKError(.errorDatabaseInaccessible, stop.message))
        case .callEnded:
            RPCStatus(.cancelled, "cancelled")
        }
    }
}
