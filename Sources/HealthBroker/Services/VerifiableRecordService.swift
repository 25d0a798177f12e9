import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire
import SmartHealthCard

/// Verifiable clinical records (`HKVerifiableClinicalRecord`): the user's import, listing and
/// deletion (manager), and the app's one-time query.
///
/// The query reuses the per-object prompt (`PerObjectPromptCenter`, `healthctl object-requests`):
/// the call files what it asks and waits; the user lists the request, which reads its candidates
/// then (`PerObjectCandidates`: every stored record the query matches, never shown to the app),
/// and answers with the records to share. The app receives exactly those, without the manager's
/// fields (`VerifiableRecord.sharedWithApp`), or errorUserCanceled when the user shared none.
/// The request is shown whatever is stored, and nothing the app receives or waits for depends on
/// the records it was not given (DESIGN.md §7.2): an app learns neither how many records exist
/// nor their types beyond what the user gave it. No grant is stored: each query asks again.
enum VerifiableRecordService {
    static func query(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let spec = try VerifiableRecordQuerySpec(wire: payload)
        try spec.validate()
        // Apple: verifiable records need the Health Records capability, as clinical records do.
        guard app.allowsHealthRecords else {
            throw HKError(.errorInvalidArgument, "verifiable clinical records need \"\(AppManifest.healthKitAccessKey)\": "
                          + "[\"\(AppManifest.healthRecordsAccess)\"] in the app's manifest")
        }
        guard app.readUsageDescription != nil else {
            throw HKError(.errorInvalidArgument, "\(AppManifest.readUsageKey) must be set in the app's manifest in order to read verifiable clinical records")
        }
        let types = [VerifiableRecord.promptTypeIdentifier]
        CallAccessReport.record(appID: app.id, types: types, detail: "verifiable clinical record query")
        let installation = try await context.store.withDatabase { database in
            guard let installation = try database.apps.installation(id: app.id) else {
                throw HKError(.errorAuthorizationDenied, "\(app.id.prefix(128)) is no longer installed")
            }
            return installation
        }
        context.logger.info("verifiable record prompt", metadata: ["app": "\(app.id)"])
        let allowed = try await context.perObjectPrompts.ask(app: app, installation: installation, typeIdentifier: types[0],
                                                             predicate: nil, verifiableQuery: spec)
        guard !allowed.isEmpty else {
            throw HKError(.errorUserCanceled, "the user shared no verifiable clinical record")
        }
        // Read after the answer: a record the user deleted meanwhile is not sent.
        let records = try await context.store.withDatabase { try $0.verifiableRecords.records(allowed) }
        CallAccessReport.record(appID: app.id, types: types, count: records.count,
                                detail: "verifiable clinical record query: \(records.count) records shared")
        return MethodTable.Reply(VerifiableRecordList(records.map(\.sharedWithApp)))
    }

    /// Parses the file (and the issuer's keys, if given) with `SmartHealthCardReader`, bounded
    /// before any byte is decoded, and stores each card; all or nothing.
    static func importRecords(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let request = try VerifiableRecordImport(wire: payload)
        let parsed: [VerifiableRecord]
        do throws(SmartHealthCardError) {
            let keys = request.issuerKeys.isEmpty ? nil : try IssuerKeys(request.issuerKeys)
            parsed = try SmartHealthCardReader.records(file: request.file, issuerKeys: keys)
        } catch {
            throw HKError(.errorInvalidArgument, error.description)
        }
        let stored = try await context.store.withDatabase { try $0.verifiableRecords.insert(parsed) }
        CallAccessReport.record(appID: nil, types: [VerifiableRecord.promptTypeIdentifier], count: stored.count,
                                detail: "verifiable records imported: \(stored.count)")
        // Summaries: the user needs the UUID, name, dates, issuer and verification, not the JWSs,
        // and 64 summaries fit one frame (`SmartHealthCardLimits.maxItemNameBytes`).
        return MethodTable.Reply(VerifiableRecordList(stored.map(\.summary)))
    }

    /// The records named (every record when none is), as summaries, in frames cut by bytes
    /// (`VerifiableRecordList.frames`). A record stored before the card reader checked its text
    /// is listed with those characters escaped, so the user can see and delete it.
    static func list(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let selection = try VerifiableRecordSelection(wire: payload)
        let records = try await context.store.withDatabaseOffPool { database in
            try database.verifiableRecords.summaries(selection.uuids.isEmpty ? nil : selection.uuids)
        }
        for frame in VerifiableRecordList.frames(records.map(\.escapingUnsafeText)) {
            try await responder.send(frame.wireBytes())
        }
    }

    static func delete(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let request = try VerifiableRecordDeletion(wire: payload)
        let removed = try await context.store.withDatabase { try $0.verifiableRecords.delete(request.uuids) }
        CallAccessReport.record(appID: nil, types: [VerifiableRecord.promptTypeIdentifier], count: removed,
                                detail: "verifiable records deleted: \(removed)")
        return MethodTable.Reply(EmptyMessage())
    }
}
