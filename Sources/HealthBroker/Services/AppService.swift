import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// The app-facing methods. Each takes the caller from the connection; none reads an identity
/// from its payload. Every read goes through `AuthorizationEngine.readScope`.
enum AppService {
    /// Immediate (MethodTable): grants only, no side effects.
    static func getRequestStatus(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8],
                                 _ grants: HealthDatabase) throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let types = try AuthorizationTypes(wire: payload)
        let request = try ValidatedAuthorizationRequest(app: app, share: types.shareTypes, read: types.readTypes)
        let open = try grants.authorization.undetermined(app: app, request)
        let status: HKAuthorizationRequestStatus = open.read.isEmpty && open.share.isEmpty ? .unnecessary : .shouldRequest
        return MethodTable.Reply(StatusValue(status.rawValue))
    }

    static func requestAuthorization(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let types = try AuthorizationTypes(wire: payload)
        let request = try ValidatedAuthorizationRequest(app: app, share: types.shareTypes, read: types.readTypes)
        CallAccessReport.record(appID: app.id, types: Array(Set(types.shareTypes + types.readTypes)).sorted(),
                                detail: "share \(types.shareTypes.count), read \(types.readTypes.count)")
        let open = try await context.store.withGrants { try $0.authorization.undetermined(app: app, request) }
        if !open.read.isEmpty || !open.share.isEmpty {
            context.logger.info("authorization prompt", metadata: [
                "app": "\(app.id)", "read": "\(open.read.count)", "share": "\(open.share.count)",
            ])
            try await context.prompts.ask(app: app, read: open.read, share: open.share)
        }
        return MethodTable.Reply(EmptyMessage())
    }

    /// Immediate (MethodTable): grants only, no side effects.
    static func authorizationStatus(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8],
                                    _ grants: HealthDatabase) throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let identifier = try TypeIdentifierMessage(wire: payload).identifier
        guard HKObjectType.type(forIdentifier: identifier) != nil else {
            throw HKError(.errorInvalidArgument, "unknown type identifier \(identifier.prefix(100))")
        }
        let status = try grants.authorization.sharingStatus(app: app, type: identifier)
        return MethodTable.Reply(StatusValue(status.rawValue))
    }

    /// HKSource.default(): the source healthd records on this caller's saves. Only its own
    /// identity, from the connection; no health data, so not access-logged.
    /// Immediate (MethodTable): the caller alone; the store is not read.
    static func currentSource(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8],
                              _: HealthDatabase) throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        _ = try CurrentSourceRequest(wire: payload)
        return MethodTable.Reply(SourceList([SourceRecord(bundleIdentifier: app.id, name: app.displayName)]))
    }

    static func save(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        var request = try SaveRequest(wire: payload)
        // Reported before the checks, so a refused save's log entry names the types it tried.
        CallAccessReport.record(appID: app.id, types: request.loggedTypes)
        try await context.store.withGrants { try $0.authorization.checkSave(app: app, types: request.shareTypes) }
        let source = try request.canonicalize(for: app)
        // The access-log entry commits with the samples (one transaction, one fsync) when the
        // store is open; while it is locked the dispatcher journals it after the save.
        let report = CallAccessReport.current
        let entry = report?.entryForWrite(appID: app.id, types: request.loggedTypes)
        let saved = try await context.store.save(request.records, source: source, accessLog: entry)
        let uuids = saved.uuids
        if saved.entryCommitted {
            report?.committedWithEntry(appID: app.id, types: request.loggedTypes, count: uuids.count)
        } else {
            CallAccessReport.record(appID: app.id, types: request.loggedTypes, count: uuids.count)
        }
        context.logger.info("saved", metadata: ["app": "\(app.id)", "count": "\(uuids.count)"])
        return MethodTable.Reply(SavedUUIDs(uuids))
    }

    /// `save` on the connection's reader thread, into the open store (MethodTable `.write`,
    /// `CallDispatcher.commitNow`): the same checks (`SaveRequest`), the same share check, and the
    /// same transaction with the access-log entry, committed by this thread when no other commit
    /// is running (`SampleRepository.insertBlocking`) — no task, no pool thread, no hand-off for a
    /// lone save. Throws only when nothing was written (a refusal, a bad request, or a commit that
    /// failed and rolled back): the call then runs again on the ordinary path, `save`, which
    /// reports and logs the failure.
    static func saveOnReader(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ database: HealthDatabase,
                             _ report: CallAccessReport) throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        var request = try SaveRequest(wire: payload)
        try database.authorization.checkSave(app: app, types: request.shareTypes)
        let source = try request.canonicalize(for: app)
        let entry = report.entryForWrite(appID: app.id, types: request.loggedTypes)
        let uuids = try database.samples.insertBlocking(request.records, source: source, accessLog: entry)
        report.committedWithEntry(appID: app.id, types: request.loggedTypes, count: uuids.count)
        context.logger.info("saved", metadata: ["app": "\(app.id)", "count": "\(uuids.count)"])
        return MethodTable.Reply(SavedUUIDs(uuids))
    }

    static func querySamples(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        let spec = try SampleQuerySpec(wire: payload)
        try SampleQueries.check(spec)
        if HKObjectType.type(forIdentifier: spec.typeIdentifier) is HKCorrelationType {
            try await CorrelationService.stream(CorrelationQuerySpec(spec), for: app, context, responder)
            return
        }
        let report = CallAccessReport.current
        try await context.store.withDatabaseOffPool { database in
            let visibility = try StreamVisibility(app: app, types: [spec.typeIdentifier], in: database)
            report?.record(appID: app.id, types: [spec.typeIdentifier])
            try SampleQueries.stream(spec, visibility: visibility, from: database, to: responder, counting: report)
        }
    }
}

/// What both QuerySamples methods share: checks that do not depend on who asks (so they cannot
/// leak anything), and streaming the results.
enum SampleQueries {
    /// `SampleQuerySpec.check` (HealthModel), which the `query-spec` fuzz target runs too.
    static func check(_ spec: SampleQuerySpec) throws(HKError) {
        try spec.check()
    }

    /// Runs a validated query within `scope` and streams the results as SampleList batches,
    /// adding each batch's size to the call's access-log count: the manager's QuerySamples,
    /// which sees every source and whose scope never narrows.
    static func stream(_ spec: SampleQuerySpec, scope: Visibility, from database: HealthDatabase,
                       to responder: CallResponder, counting report: CallAccessReport?) throws {
        // Plain rows go from the statement straight into the frame (FetchedSampleEncoder).
        var encoder = FetchedSampleEncoder()
        let batching = AnswerBatching.samples(of: spec.typeIdentifier) { encoder.encodedSize(ofLastRowOf: $0) }
        try database.samples.queryFetched(spec, scope: scope, batching: batching) { batch in
            try responder.sendFromSynchronousContext(encoder.wireBytes(batch))
            report?.add(count: batch.count)
        }
    }

    /// The app's QuerySamples: the same batches, each sent only while `visibility` says the
    /// rows read for it are still the app's to see (`StreamVisibility`). When it does not, the
    /// batch is dropped and the query goes on after the last row sent, under the scope in force
    /// now (`SampleQueryResume`), over the rows committed by the first reading (the answer's
    /// `ReadSnapshot`, `visibility.snapshot`): rows the app lost since never leave, and the rows it
    /// still sees arrive in the same batches as if the lost ones had never been stored.
    static func stream(_ spec: SampleQuerySpec, visibility: StreamVisibility, from database: HealthDatabase,
                       to responder: CallResponder, counting report: CallAccessReport?) throws {
        let type = spec.typeIdentifier
        var resume: SampleQueryResume?
        repeat {
            // A batch's source and device tables begin anew with each reading.
            var encoder = FetchedSampleEncoder()
            let batching = AnswerBatching.samples(of: type) { encoder.encodedSize(ofLastRowOf: $0) }
            resume = try database.samples.queryFetched(spec, scope: visibility.scope(type), batching: batching,
                                                       resuming: resume, within: visibility.snapshot) { batch in
                guard try responder.sendFromSynchronousContext(encoder.wireBytes(batch), ifStillCurrent: visibility.isCurrent) else {
                    return false
                }
                report?.add(count: batch.count)
                return true
            }
            if resume != nil { try visibility.refresh() }
        } while resume != nil
    }
}
