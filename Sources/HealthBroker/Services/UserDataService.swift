import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// The user's own changes to their data from healthctl (admin socket only): entries they type
/// in, deletions of any source's objects, and removing an app. Entries are checked exactly as an
/// app's save (`SampleValidator`: types, units, value ranges, metadata); deletions go through
/// the store's one deletion path, so apps see them as deleted objects; each call is recorded in
/// the access log as the manager's.
enum UserDataService {
    /// Where the user's own entries live: `@user` (no app id can start with "@"), shown as
    /// "Health" like entries typed into Apple's Health app — the identity characteristics use.
    /// What the user enters is saved on this host, as Apple's Health app stamps its entries with
    /// the phone's product type and system.
    static var userSource: SourceRecord { CharacteristicRepository.userSource.saved(on: .current) }

    static func addSamples(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        var canonical = try SampleList(wire: payload).samples
        guard !canonical.isEmpty else { throw HKError(.errorInvalidArgument, "no samples to add") }
        try SavedSampleBound.check(canonical, payloadBytes: payload.count)
        try SampleValidator.canonicalize(batch: &canonical)
        for index in canonical.indices {
            canonical[index].source = nil
            // Marked as HealthKit marks what a person typed in, so apps can tell it from measurements.
            canonical[index].metadata[HKMetadataKeyWasUserEntered] = .bool(true)
        }
        let types = Set(canonical.map(\.typeIdentifier)).sorted()
        let uuids = try await context.store.withDatabase { try await $0.samples.insert(canonical, source: userSource) }
        CallAccessReport.record(appID: nil, types: types, count: canonical.count, detail: "entered by the user")
        context.logger.info("user entries added", metadata: ["count": "\(canonical.count)"])
        return MethodTable.Reply(SavedUUIDs(uuids))
    }

    static func deleteSamples(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let deletion = try ManagerDeletion(wire: payload)
        let count: Int
        var types: [String] = []
        switch deletion.target {
        case let .uuids(uuids):
            guard !uuids.isEmpty else { throw HKError(.errorInvalidArgument, "no objects to delete") }
            count = try await context.store.withDatabase { try await $0.samples.deleteAnySource(uuids: uuids, dryRun: deletion.dryRun) }
        case let .matching(type, predicate):
            guard HKObjectType.type(forIdentifier: type) is HKSampleType else {
                throw HKError(.errorInvalidArgument, "\(type.prefix(100)) is not a sample type; only samples can be deleted")
            }
            types = [type]
            count = try await context.store.withDatabase {
                try await $0.samples.deleteAnySource(typeIdentifier: type, predicate: predicate, dryRun: deletion.dryRun)
            }
        }
        if !deletion.dryRun {
            CallAccessReport.record(appID: nil, types: types, count: count, detail: "deleted by the user")
            context.logger.notice("user deleted samples", metadata: ["count": "\(count)"])
        }
        return MethodTable.Reply(DeletedCount(count))
    }

    /// Uninstalls the app and ends its presence: its connections close, telling it why (every
    /// call and long-running query it has open ends with errorAuthorizationDenied), its waiting
    /// prompts are withdrawn, its grants, background-delivery registrations and direct opt-in go
    /// with its manifest row, and its objects too when the user asked.
    ///
    /// Order matters: the connections end, and their running calls finish, *before* the store
    /// changes — so no call of the removed app (a save under way) commits after the removal or
    /// after its data was deleted — and are ended again after it, which refuses any connection
    /// bound from a lookup the removal overtook (`ConnectionRegistry.endConnections`).
    static func removeApp(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let request = try AppRemoval(wire: payload)
        let ending = IdentityEnding.removed(appID: request.appID)
        // Refused while locked before anything ends (removal is not kept in the pending journal).
        guard try await context.store.withDatabase(changing: "removing an app and its data", { try $0.apps.find(id: request.appID) }) != nil else {
            throw HKError(.errorInvalidArgument, "no installed app \(request.appID.prefix(128)); see `healthctl apps list`")
        }
        // An id outside `AppIDRule` (a look-alike an older version installed) cannot have served
        // since (`InstalledManifestCheck`), so nothing in healthd's tables is its; and those
        // tables compare by Swift's equality, where it is the app it looks like. Only its rows go.
        let served = AppIDRule.isValid(request.appID)
        // Also withdraws its waiting prompts: each is its request's call, cancelled and awaited
        // here (PromptCenter.ask withdraws a prompt whose call is cancelled).
        if served { await context.connections.endConnections(of: request.appID, because: ending) }
        let deleted = try await context.store.withDatabase(changing: "removing an app and its data") { database -> Int? in
            guard try database.apps.remove(id: request.appID) else { return nil }
            return request.deleteData ? try await database.samples.deleteAll(fromSource: request.appID) : 0
        }
        if served { await context.connections.endConnections(of: request.appID, because: ending) }
        // Its per-object read requests go too, whatever became of their calls: an answer
        // arriving later finds none (and `decide` refuses one already looked up).
        if served { await context.perObjectPrompts.withdrawAll(appID: request.appID) }
        guard let deleted else {
            throw HKError(.errorInvalidArgument, "no installed app \(request.appID.prefix(128)); see `healthctl apps list`")
        }
        if served {
            context.backgroundDelivery.registrationsChanged(appID: request.appID)
            context.changes.post(grantsChangedFor: request.appID)
        }
        context.grantExpiries.reschedule()
        CallAccessReport.record(appID: request.appID, types: [], count: deleted,
                                detail: request.deleteData ? "removed by the user with its data" : "removed by the user, its data kept")
        context.logger.notice("app removed", metadata: ["app": "\(request.appID)", "deleted": "\(deleted)"])
        return MethodTable.Reply(DeletedCount(deleted))
    }
}
