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
/// Candidates are read and grants written only in the open store: while locked both fail with
/// errorDatabaseInaccessible (`StoreHandle.withDatabase`), so nothing needs journaling.
enum PerObjectReadService {
    /// The most objects one request offers, newest first: what healthd holds for a pending
    /// request stays bounded (at most 1,000 summaries of a few KB each, `candidateSummary`); an app
    /// that needs older ones asks with a predicate. The listing is cut into frames by bytes
    /// (`PerObjectPromptList.frames`), so neither this count nor what another app stored in the
    /// objects can make it outgrow a frame.
    static let maxCandidates = 1_000
    /// Candidates read at a time before they are summarized: each may carry ~290 KB of metadata
    /// and device, so healthd holds at most about 4.6 MB of whole records at once.
    static let candidateBatch = 16

    /// What a prompt keeps of a candidate: what the manager shows to tell objects apart (UUID,
    /// type, dates, value, source), without the metadata and device the saving app chose, which
    /// could make each candidate ~290 KB (64 entries of 256 + 4,096 bytes, 8 device fields of
    /// 1 KiB) and a request's 1,000 of them ~290 MB in healthd's memory.
    static func candidateSummary(_ record: SampleRecord) -> SampleRecord {
        var summary = record
        summary.metadata = [:]
        summary.device = nil
        // A document's bytes (up to 1 MiB each): healthd never parses them, so the manager shows
        // a document by its dates and source.
        if case .document = record.value { summary.value = .document(DocumentValue(data: Data())) }
        return summary
    }

    /// What decoding `record` whole read beyond its summary: its document's bytes (logged with
    /// each candidate read, so the work an app's call causes can be compared).
    private static func decodedBytes(_ record: SampleRecord) -> Int {
        if case let .document(document) = record.value { return document.data.count }
        return 0
    }

    /// `HKDocumentQuery`'s per-document consent (`PerObjectAuthorization.offeredTypes`, CDA):
    /// offers the user, in `healthctl object-requests`, the documents matching the query that
    /// they have not decided on for this app — only when the app may read the type at all. The
    /// reply is sent before anything is read and is the same whatever the store holds or the app
    /// may read, and the query does not wait for the user (Apple's shows its sheet first): so
    /// neither its bytes nor its timing tell the app whether its read permission was granted or
    /// whether any document was new (DESIGN.md §7.2, §7.3). What the user allows reaches the app
    /// as any per-object grant does: in its next query, its anchored queries and its observers.
    static func offerDocuments(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let spec = try SampleQuerySpec(wire: payload)
        guard PerObjectAuthorization.offeredTypes.contains(spec.typeIdentifier) else {
            throw HKError(.errorInvalidArgument, "\(spec.typeIdentifier.prefix(100)) is not offered per document; "
                          + "only document queries (HKDocumentQuery) offer documents")
        }
        CallAccessReport.record(appID: app.id, types: [spec.typeIdentifier], detail: "document query: undecided documents offered")
        if await context.perObjectPrompts.beginOffer(appID: app.id) {
            Task {
                await fileOffer(context, app: app, spec: spec)
                await context.perObjectPrompts.endOffer(appID: app.id)
            }
        }
        return MethodTable.Reply(EmptyMessage())
    }

    /// The offer itself, after the reply: the newest `maxCandidates` documents matching `spec`
    /// that are neither the app's own nor decided on for it, from every source. Nothing is filed
    /// without the type's read grant, for an app no longer installed, or while the store is locked.
    private static func fileOffer(_ context: BrokerContext, app: AppManifest, spec: SampleQuerySpec) async {
        do {
            let found: (AppInstallation, [SampleRecord])? = try await context.store.withDatabase { database in
                guard let installation = try database.apps.installation(id: app.id),
                      try database.authorization.decision(app: app, type: spec.typeIdentifier, access: .read) == .authorized else {
                    return nil
                }
                let decided = try await database.objectGrants.decided(appID: app.id, typeIdentifier: spec.typeIdentifier)
                var terms: [SamplePredicate] = [.not(.sources([app.id]))]
                if !decided.isEmpty { terms.append(.not(.uuids(decided))) }
                if let predicate = spec.predicate { terms.append(predicate) }
                var candidates: [SampleRecord] = []
                var bytes = 0
                try database.samples.query(SampleQuerySpec(typeIdentifier: spec.typeIdentifier, predicate: .and(terms),
                                                           sort: [SampleSort(.startDate, ascending: false)], limit: maxCandidates),
                                           scope: .allSources, batchSize: candidateBatch) { batch in
                    bytes += batch.reduce(0) { $0 + decodedBytes($1) }
                    candidates += batch.map(candidateSummary)
                }
                context.logger.info("per-object candidates read", metadata: ["app": "\(app.id)", "rows": "\(candidates.count)", "bytes": "\(bytes)"])
                return (installation, candidates)
            }
            guard let (installation, candidates) = found else { return }
            await context.perObjectPrompts.offer(app: app, installation: installation, typeIdentifier: spec.typeIdentifier,
                                                 candidates: candidates)
        } catch {
            context.logger.info("document offer not filed", metadata: ["app": "\(app.id)", "error": "\(type(of: error))"])
        }
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
        CallAccessReport.record(appID: app.id, types: [spec.typeIdentifier], detail: "per-object read request")
        // Every object of the type that matches, from every source: the user's choice, never
        // shown to the app. The predicate is compiled within the manager's visibility.
        // The installation that asks: the user's answer is stored for it alone (`answer`).
        let (installation, candidates) = try await context.store.withDatabase { database in
            guard let installation = try database.apps.installation(id: app.id) else {
                throw HKError(.errorAuthorizationDenied, "\(app.id.prefix(128)) is no longer installed")
            }
            var found: [SampleRecord] = []
            var bytes = 0
            try database.samples.query(SampleQuerySpec(typeIdentifier: spec.typeIdentifier, predicate: spec.predicate,
                                                       sort: [SampleSort(.startDate, ascending: false)], limit: maxCandidates),
                                       scope: .allSources, batchSize: candidateBatch) { batch in
                bytes += batch.reduce(0) { $0 + decodedBytes($1) }
                found += batch.map(candidateSummary)
            }
            context.logger.info("per-object candidates read", metadata: ["app": "\(app.id)", "rows": "\(found.count)", "bytes": "\(bytes)"])
            return (installation, found)
        }
        context.logger.info("per-object read prompt", metadata: ["app": "\(app.id)", "candidates": "\(candidates.count)"])
        try await context.perObjectPrompts.ask(app: app, installation: installation, typeIdentifier: spec.typeIdentifier,
                                               candidates: candidates)
        return MethodTable.Reply(EmptyMessage())
    }

    /// Every pending request, in frames cut by bytes: a request's candidates may continue over
    /// several (the manager joins them, `PerObjectPromptList.merged`).
    static func list(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        for frame in PerObjectPromptList.frames(await context.perObjectPrompts.prompts) {
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
        let (prompt, installation) = pending
        let candidates = prompt.candidates.map(\.uuid)
        let offered = Set(candidates)
        for uuid in answer.uuids where !offered.contains(uuid) {
            throw HKError(.errorInvalidArgument, "request \(answer.requestID) did not offer object \(uuid.uuidString.lowercased())")
        }
        let granted = try await context.store.withDatabase { database in
            try await database.objectGrants.decide(for: installation, decided: candidates, allowed: Set(answer.uuids), at: Date())
        }
        CallAccessReport.record(appID: prompt.appID, types: [prompt.typeIdentifier], count: granted,
                                detail: "per-object request \(answer.requestID): \(granted) of \(candidates.count) objects allowed")
        context.changes.post(grantsChangedFor: prompt.appID)
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
        CallAccessReport.record(appID: request.appID, types: Array(PerObjectAuthorization.types.union(PerObjectAuthorization.offeredTypes)).sorted(), count: removed,
                                detail: "per-object grants revoked: \(removed)")
        context.changes.post(grantsChangedFor: request.appID)
        return MethodTable.Reply(EmptyMessage())
    }
}
