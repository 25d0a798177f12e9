import Foundation
import HealthModel
import HealthStore
import HealthWire

/// The plaintext of a pending-journal entry (before `PendingJournal` seals it): header length
/// (4 bytes, big-endian) ‖ a JSON header ‖ for a save, the samples in their wire encoding
/// (for grants, the `AppGrants` message; for a deletion by predicate, the `MatchingDeletion`
/// request; for a workout association, the `WorkoutAssociation` request; for a workout effort
/// relation, the `WorkoutEffortRelationChange` request; for route locations,
/// the `RouteDataChunk` request; for a finished route, the `RouteFinish` request)
/// (`SampleList`, the save request's own format, as raw bytes: a scan of the disk for a save's
/// values finds them if they were ever written unsealed), so a merged save is the very records
/// that were validated when the app saved. Authenticated by the seal, so the
/// merge trusts it as it trusts the store; a decoding failure still only counts the entry as
/// damaged.
enum PendingEntryCoding {
    fileprivate struct Entry: Codable {
        enum Kind: String, Codable {
            case save, delete, grants, accessLog, deleteMatching, associate, enableBackground, disableBackground, appAccess
            case routeData, finishRoute
            /// relate/unrelateWorkoutEffortSample (`allowed`: relate); trailer: the request.
            case workoutEffort
        }
        var kind: Kind
        // save
        // bundle identifier, name, version, then (entries since v31) product type and system
        // version ("major.minor.patch"): the saving host's, as stamped when the app saved
        var source: [String?]?
        var uuids: [UUID]?
        // delete: (type identifier, UUID) pairs
        var deletions: [[String]]?
        // access log
        var actor: String?
        var appID: String?
        var action: String?
        var types: [String]?
        var count: Int?
        var detail: String?
        var timeMicros: Int64?
        // deleteMatching: the app's read scope for workouts ("all", "own" or "window" since)
        var workoutScope: String?
        var workoutScopeSinceMicros: Int64?
        // background delivery
        var typeIdentifier: String?
        var frequency: Int?
        // app access: which switch, and its new position
        var setting: String?
        var allowed: Bool?
    }

    static func encode(_ effect: PendingEffect) throws -> [UInt8] {
        let entry: Entry
        var samples: [UInt8] = []
        switch effect {
        case let .save(records, source, uuids):
            entry = Entry(kind: .save, source: sourceFields(source), uuids: uuids)
            samples = SampleList(records).wireBytes()
        case let .delete(references, appID):
            entry = Entry(kind: .delete, deletions: references.map { [$0.typeIdentifier, $0.uuid.uuidString] }, appID: appID)
        case let .grants(appID, decisions, date):
            entry = Entry(kind: .grants, appID: appID, timeMicros: date.microsecondsSince1970)
            samples = AppGrants(appID: appID, decisions: decisions).wireBytes()
        case let .accessLog(actor, appID, action, types, count, detail, date):
            entry = Entry(kind: .accessLog, actor: actor, appID: appID, action: action.rawValue, types: types,
                          count: count, detail: detail, timeMicros: date.microsecondsSince1970)
        case let .deleteMatching(typeIdentifier, predicate, appID, workouts, log):
            var matching = Entry(kind: .deleteMatching, actor: log?.actor, appID: appID, action: log?.action.rawValue,
                                 types: log?.types, detail: log?.detail, timeMicros: log?.date.microsecondsSince1970)
            matching.setWorkoutScope(workouts)
            entry = matching
            samples = MatchingDeletion(typeIdentifier: typeIdentifier, predicate: predicate).wireBytes()
        case let .associate(sampleUUIDs, workoutUUID, appID):
            entry = Entry(kind: .associate, appID: appID)
            samples = WorkoutAssociation(workoutUUID: workoutUUID, sampleUUIDs: sampleUUIDs).wireBytes()
        case let .workoutEffortRelation(sample, workout, activity, appID, workouts, relate):
            var relation = Entry(kind: .workoutEffort, appID: appID, allowed: relate)
            relation.setWorkoutScope(workouts)
            entry = relation
            samples = WorkoutEffortRelationChange(sampleUUID: sample, workoutUUID: workout, activityUUID: activity).wireBytes()
        case let .enableBackgroundDelivery(registration):
            entry = Entry(kind: .enableBackground, appID: registration.appID,
                          timeMicros: registration.enabledDate.microsecondsSince1970,
                          typeIdentifier: registration.typeIdentifier, frequency: registration.frequency.rawValue)
        case let .disableBackgroundDelivery(appID, typeIdentifier):
            entry = Entry(kind: .disableBackground, appID: appID, typeIdentifier: typeIdentifier)
        case let .routeData(locations, builderID, source, date):
            entry = Entry(kind: .routeData, source: sourceFields(source),
                          timeMicros: date.microsecondsSince1970)
            samples = RouteDataChunk(builderID: builderID, locations: locations).wireBytes()
        case let .finishRoute(builderID, workoutUUID, metadata, device, source, uuid):
            entry = Entry(kind: .finishRoute, source: sourceFields(source), uuids: [uuid])
            samples = RouteFinish(builderID: builderID, workoutUUID: workoutUUID, metadata: metadata, device: device).wireBytes()
        case let .appAccess(appID, setting, allowed, date):
            entry = Entry(kind: .appAccess, appID: appID, timeMicros: date.microsecondsSince1970, setting: setting.rawValue,
                          allowed: allowed)
        }
        let header = Array(try JSONEncoder().encode(entry))
        let length = UInt32(header.count)
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + header + samples
    }

    static func decode(_ bytes: [UInt8]) throws -> PendingEffect {
        guard bytes.count >= 4 else { throw WireDecodeError.invalidField("pending entry too short") }
        let length = bytes[0 ..< 4].reduce(0) { $0 << 8 | Int($1) }
        guard length <= bytes.count - 4 else { throw WireDecodeError.invalidField("pending entry header overruns the entry") }
        let entry = try JSONDecoder().decode(Entry.self, from: Data(bytes[4 ..< 4 + length]))
        let trailer = Array(bytes[(4 + length)...])
        switch entry.kind {
        case .save:
            guard let source = try sourceRecord(entry), let uuids = entry.uuids else {
                throw WireDecodeError.invalidField("pending save entry incomplete")
            }
            return .save(records: try SampleList(wire: trailer).samples, source: source, uuids: uuids)
        case .delete:
            guard let deletions = entry.deletions, let appID = entry.appID else {
                throw WireDecodeError.invalidField("pending deletion entry incomplete")
            }
            let references = try deletions.map { pair in
                guard pair.count == 2, let uuid = UUID(uuidString: pair[1]) else {
                    throw WireDecodeError.invalidField("pending deletion names no object")
                }
                return ObjectReference(typeIdentifier: pair[0], uuid: uuid)
            }
            return .delete(references: references, appID: appID)
        case .grants:
            guard let appID = entry.appID, let micros = entry.timeMicros else {
                throw WireDecodeError.invalidField("pending grants entry incomplete")
            }
            let grants = try AppGrants(wire: trailer)
            guard grants.appID == appID else { throw WireDecodeError.invalidField("pending grants entry names two apps") }
            return .grants(appID: appID, decisions: grants.decisions, at: Date(microsecondsSince1970: micros))
        case .accessLog:
            guard let actor = entry.actor, let raw = entry.action, let action = AccessAction(rawValue: raw),
                  let types = entry.types, let count = entry.count, let micros = entry.timeMicros else {
                throw WireDecodeError.invalidField("pending access-log entry incomplete")
            }
            return .accessLog(actor: actor, appID: entry.appID, action: action, types: types, count: count,
                              detail: entry.detail ?? "", at: Date(microsecondsSince1970: micros))
        case .deleteMatching:
            guard let appID = entry.appID else { throw WireDecodeError.invalidField("pending deletion entry incomplete") }
            let workouts = try entry.readWorkoutScope(appID: appID)
            let deletion = try MatchingDeletion(wire: trailer)
            // The call's access-log entry, written at merge with the count (none if the call had none).
            var log: AccessLogEntryDraft?
            if let actor = entry.actor, let raw = entry.action, let action = AccessAction(rawValue: raw),
               let types = entry.types, let micros = entry.timeMicros {
                log = AccessLogEntryDraft(actor: actor, appID: appID, action: action, types: types, detail: entry.detail ?? "",
                                          date: Date(microsecondsSince1970: micros))
            }
            return .deleteMatching(typeIdentifier: deletion.typeIdentifier, predicate: deletion.predicate, appID: appID,
                                   workouts: workouts, accessLog: log)
        case .associate:
            guard let appID = entry.appID else { throw WireDecodeError.invalidField("pending association entry incomplete") }
            let association = try WorkoutAssociation(wire: trailer)
            return .associate(sampleUUIDs: association.sampleUUIDs, workoutUUID: association.workoutUUID, appID: appID)
        case .workoutEffort:
            guard let appID = entry.appID, let relate = entry.allowed else {
                throw WireDecodeError.invalidField("pending workout effort entry incomplete")
            }
            let change = try WorkoutEffortRelationChange(wire: trailer)
            return .workoutEffortRelation(sample: change.sampleUUID, workout: change.workoutUUID, activity: change.activityUUID,
                                          appID: appID, workouts: try entry.readWorkoutScope(appID: appID), relate: relate)
        case .enableBackground:
            guard let appID = entry.appID, let type = entry.typeIdentifier, let raw = entry.frequency,
                  let frequency = HKUpdateFrequency(rawValue: raw), let micros = entry.timeMicros else {
                throw WireDecodeError.invalidField("pending background-delivery entry incomplete")
            }
            return .enableBackgroundDelivery(BackgroundDeliveryRegistration(appID: appID, typeIdentifier: type, frequency: frequency,
                                                                            enabledDate: Date(microsecondsSince1970: micros)))
        case .disableBackground:
            guard let appID = entry.appID else { throw WireDecodeError.invalidField("pending background-delivery entry incomplete") }
            return .disableBackgroundDelivery(appID: appID, typeIdentifier: entry.typeIdentifier)
        case .routeData:
            guard let source = try sourceRecord(entry), let micros = entry.timeMicros else {
                throw WireDecodeError.invalidField("pending route-data entry incomplete")
            }
            let chunk = try RouteDataChunk(wire: trailer)
            return .routeData(locations: chunk.locations, builderID: chunk.builderID, source: source,
                              at: Date(microsecondsSince1970: micros))
        case .finishRoute:
            guard let source = try sourceRecord(entry), let uuids = entry.uuids, uuids.count == 1 else {
                throw WireDecodeError.invalidField("pending finished-route entry incomplete")
            }
            let finish = try RouteFinish(wire: trailer)
            return .finishRoute(builderID: finish.builderID, workoutUUID: finish.workoutUUID, metadata: finish.metadata,
                                device: finish.device, source: source, uuid: uuids[0])
        case .appAccess:
            guard let appID = entry.appID, let raw = entry.setting, let setting = AppAccessSetting(rawValue: raw),
                  let allowed = entry.allowed, let micros = entry.timeMicros else {
                throw WireDecodeError.invalidField("pending app-access entry incomplete")
            }
            return .appAccess(appID: appID, setting: setting, allowed: allowed, at: Date(microsecondsSince1970: micros))
        }
    }

    /// A save or route entry's source fields (`Entry.source`).
    private static func sourceFields(_ source: SourceRecord) -> [String?] {
        [source.bundleIdentifier, source.name, source.version, source.productType,
         source.operatingSystemVersion == .unrecorded ? nil : source.operatingSystemVersion.description]
    }

    /// The source of a save or route entry: bundle identifier, name, version, and the product
    /// type and system version it was saved on. An entry journaled before v31 has three fields:
    /// its objects record neither, as every object saved before v31.
    private static func sourceRecord(_ entry: Entry) throws -> SourceRecord? {
        guard let source = entry.source, source.count == 3 || source.count == 5, let bundle = source[0], let name = source[1] else {
            return nil
        }
        var record = SourceRecord(bundleIdentifier: bundle, name: name, version: source[2])
        if source.count == 5 {
            record.productType = source[3]
            if let text = source[4] {
                guard let system = SystemVersion(parsing: text) else {
                    throw WireDecodeError.invalidField("pending entry's system version is not major.minor.patch")
                }
                record.operatingSystemVersion = system
            }
        }
        return record
    }
}

private extension PendingEntryCoding.Entry {
    mutating func setWorkoutScope(_ workouts: ReadScope) {
        switch workouts {
        case .allSources: workoutScope = "all"
        // A per-object scope never applies to workouts; if it did, own is the safe narrowing.
        case .ownSamples, .ownAndGrantedObjects: workoutScope = "own"
        case let .recentWindow(_, since):
            workoutScope = "window"
            workoutScopeSinceMicros = since.microsecondsSince1970
        }
    }

    func readWorkoutScope(appID: String) throws -> ReadScope {
        switch (workoutScope, workoutScopeSinceMicros) {
        case ("all", _): return .allSources
        case ("own", _): return .ownSamples(appID: appID)
        case let ("window", since?): return .recentWindow(appID: appID, since: Date(microsecondsSince1970: since))
        default: throw WireDecodeError.invalidField("pending entry names no workout scope")
        }
    }
}
