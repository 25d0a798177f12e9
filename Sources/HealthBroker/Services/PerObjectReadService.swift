import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// Per-object read authorization (`HKHealthStore.requestPerObjectReadAuthorization`, iOS 16):
/// the app's request and the manager's answer, listing and revocation. The grants it leaves are
/// read only by `ReadScope.ownAndGrantedObjects` (the visibility choke point).
///
/// What the app learns: its call returns once the user answered (success means "the user was
/// asked", DESIGN.md §7.7). The request is always shown, whether or not anything matches — a
/// request answered at once when nothing matched would tell the app that no such object exists.
/// What it costs: the app's request and document query file what it asked and read nothing of
/// the store's objects; the candidates are read when the user lists them (`PerObjectCandidates`).
/// Requests are filed, candidates read and grants written only in the open store: while locked
/// each fails with errorDatabaseInaccessible (`StoreHandle.withDatabase`), so nothing needs journaling.
enum PerObjectReadService {
    /// `HKDocumentQuery`'s per-document consent (`PerObjectAuthorization.offeredTypes`, CDA):
    /// offers the user, in `healthctl object-requests`, the documents matching the query that
    /// they have not decided on for this app — shown only while the app may read the type at all,
    /// which the listing checks. The call files the offer (the app, the type and the predicate)
    /// and replies, the same whatever the store holds or the app may read, and the query does not
    /// wait for the user (Apple's shows its sheet first): so neither its bytes nor its timing nor
    /// the work it causes tell the app whether its read permission was granted or whether any
    /// document was new (DESIGN.md §7.2, §7.3). What the user allows reaches the app as any
    /// per-object grant does: in its next query, its anchored queries and its observers.
    static func offerDocuments(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let spec = try SampleQuerySpec(wire: payload)
        guard PerObjectAuthorization.offeredTypes.contains(spec.typeIdentifier) else {
            throw HKError(.errorInvalidArgument, "\(spec.typeIdentifier.prefix(100)) is not offered per document; "
                          + "only document queries (HKDocumentQuery) offer documents")
        }
        try PerObjectCandidates.validate(typeIdentifier: spec.typeIdentifier, predicate: spec.predicate)
        CallAccessReport.record(appID: app.id, types: [spec.typeIdentifier], detail: "document query: undecided documents offered")
        // The installation that asks (a key lookup): an answer is stored for it alone. Nothing is
        // filed for an app no longer installed or while the store is locked; the reply is the same.
        if let installation = try? await context.store.withDatabase({ try $0.apps.installation(id: app.id) }) {
            await context.perObjectPrompts.offer(app: app, installation: installation, typeIdentifier: spec.typeIdentifier,
                                                 predicate: spec.predicate)
        }
        return MethodTable.Reply(EmptyMessage())
    }

    static func request(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let spec = try SampleQuerySpec(wire: payload)
        if let through = PerObjectAuthorization.readThroughGrants[spec.typeIdentifier] {
            throw HKError(.errorInvalidArgument, "\(spec.typeIdentifier) is read with the objects of \(through) it belongs to; "
                          + "ask for those with requestPerObjectReadAuthorization")
        }
        guard PerObjectAuthorization.isPerObject(spec.typeIdentifier) else {
            throw HKError(.errorInvalidArgument, "\(spec.typeIdentifier.prefix(100)) is not read per object; "
                          + "ask for it with requestAuthorization(toShare:read:)")
        }
        guard app.readUsageDescription != nil else {
            throw HKError(.errorInvalidArgument, "\(AppManifest.readUsageKey) must be set in the app's manifest in order to request read authorization")
        }
        try PerObjectCandidates.validate(typeIdentifier: spec.typeIdentifier, predicate: spec.predicate)
        CallAccessReport.record(appID: app.id, types: [spec.typeIdentifier], detail: "per-object read request")
        // The installation that asks: the user's answer is stored for it alone (`answer`). Every
        // object of the type that matches, from every source, is the user's to see when they list
        // the request (`PerObjectCandidates`), never shown to the app.
        let installation = try await context.store.withDatabase { database in
            guard let installation = try database.apps.installation(id: app.id) else {
                throw HKError(.errorAuthorizationDenied, "\(app.id.prefix(128)) is no longer installed")
            }
            return installation
        }
        context.logger.info("per-object read prompt", metadata: ["app": "\(app.id)"])
        try await context.perObjectPrompts.ask(app: app, installation: installation, typeIdentifier: spec.typeIdentifier,
                                               predicate: spec.predicate)
        return MethodTable.Reply(EmptyMessage())
    }

    /// Every pending request with its candidates read now, in frames cut by bytes: a request's
    /// candidates may continue over several (the manager joins them, `PerObjectPromptList.merged`).
    /// The reads are the user's: off the shared pool (`withDatabaseOffPool`), one bounded index
    /// range per request. An offer with nothing to show is withdrawn rather than listed.
    static func list(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let requests = await context.perObjectPrompts.requests
        let logger = context.logger
        let read = try await context.store.withDatabaseOffPool { database in
            try requests.map { request in (request, try PerObjectCandidates.read(request, database, logger: logger)) }
        }
        var prompts: [PerObjectPrompt] = []
        for (request, candidates) in read {
            guard let candidates, !(request.isOffer && candidates.isEmpty) else {
                await context.perObjectPrompts.withdrawOffer(request.id)
                continue
            }
            await context.perObjectPrompts.show(request.id, candidates: candidates.map(\.uuid))
            prompts.append(PerObjectPrompt(requestID: request.id, appID: request.app.id, appDisplayName: request.app.displayName,
                                           readUsageDescription: request.app.readUsageDescription ?? "",
                                           typeIdentifier: request.typeIdentifier, candidates: candidates))
        }
        for frame in PerObjectPromptList.frames(prompts) {
            try await responder.send(frame.wireBytes())
        }
    }

    /// The user's pick: the listed objects allowed, every other candidate of the request not (a
    /// grant it held before is removed, as HealthKit's sheet shows each object's current state).
    /// The grants go to the installation that asked: `decide` checks it in the transaction that
    /// writes them, so an app removed (and installed again) since its request receives nothing.
    static func answer(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let answer = try ObjectReadGrants(wire: payload)
        guard let pending = await context.perObjectPrompts.request(answer.requestID) else {
            throw HKError(.errorInvalidArgument, "no pending per-object request \(answer.requestID); list them with `healthctl object-requests`")
        }
        let (request, shown) = pending
        // What the user was shown; a request answered without a listing is read now (the same
        // read, so the answer decides what a listing would have shown).
        var candidates = shown ?? []
        if shown == nil {
            let logger = context.logger
            candidates = try await context.store.withDatabaseOffPool { database in
                try PerObjectCandidates.read(request, database, logger: logger)?.map(\.uuid) ?? []
            }
        }
        let offered = Set(candidates)
        for uuid in answer.uuids where !offered.contains(uuid) {
            throw HKError(.errorInvalidArgument, "request \(answer.requestID) did not offer object \(uuid.uuidString.lowercased())")
        }
        if request.verifiableQuery != nil {
            // One-time: the records go to the waiting call and no grant is stored.
            let allowed = Set(answer.uuids)
            let shared = candidates.filter(allowed.contains)
            // The app is sent the records whole in one answer: a pick that would not fit a frame
            // is refused here, for the user to pick fewer, rather than failing the app's call.
            let records = try await context.store.withDatabaseOffPool { try $0.verifiableRecords.records(shared) }
            let (bytes, fits) = VerifiableRecordList.appAnswerSize(records)
            guard fits else {
                throw HKError(.errorInvalidArgument, "the \(records.count) records picked take \(bytes) bytes; one answer to an app "
                              + "carries at most \(VerifiableRecordList.maxRecords) records and \(VerifiableRecordList.appAnswerBytes) "
                              + "bytes: share fewer of them (the app may ask again for the others)")
            }
            CallAccessReport.record(appID: request.app.id, types: [request.typeIdentifier], count: shared.count,
                                    detail: "verifiable record query \(answer.requestID): \(shared.count) of \(candidates.count) records shared")
            _ = await context.perObjectPrompts.resolve(answer.requestID, allowed: shared)
            return MethodTable.Reply(EmptyMessage())
        }
        let decided = try await context.store.withDatabase { database in
            try await database.objectGrants.answer(for: request.installation, decided: candidates, allowed: Set(answer.uuids), at: Date())
        }
        CallAccessReport.record(appID: request.app.id, types: [request.typeIdentifier], count: decided.granted,
                                detail: "per-object request \(answer.requestID): \(decided.granted) of \(candidates.count) objects allowed")
        // Only an answer that added or removed a grant wakes the app's queries: one that changed
        // nothing (a refused document offer) must cost them nothing (privacy review, session 19, finding 3).
        if decided.changedGrants { context.changes.post(grantsChangedFor: request.app.id, types: [request.typeIdentifier]) }
        _ = await context.perObjectPrompts.resolve(answer.requestID)
        return MethodTable.Reply(EmptyMessage())
    }

    static func listGrants(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let request = try ObjectReadGrants(wire: payload)
        let uuids = try await context.store.withDatabase { try await $0.objectGrants.granted(appID: request.appID) }
        return MethodTable.Reply(ObjectReadGrants(appID: request.appID, uuids: uuids))
    }

    static func revoke(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let request = try ObjectReadGrants(wire: payload)
        guard request.all || !request.uuids.isEmpty else {
            throw HKError(.errorInvalidArgument, "name the objects to revoke, or all of them")
        }
        let removed = try await context.store.withDatabase {
            try await $0.objectGrants.revoke(appID: request.appID, uuids: request.all ? nil : request.uuids)
        }
        let types = Array(PerObjectAuthorization.types.union(PerObjectAuthorization.offeredTypes)).sorted()
        CallAccessReport.record(appID: request.appID, types: types, count: removed, detail: "per-object grants revoked: \(removed)")
        if removed > 0 { context.changes.post(grantsChangedFor: request.appID, types: types) }
        return MethodTable.Reply(EmptyMessage())
    }
}
