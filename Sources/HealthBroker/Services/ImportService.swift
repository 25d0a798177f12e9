import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// `healthctl import` (manager method `ImportSamples`): data the user brings from elsewhere is
/// checked exactly as an app's save (`SampleValidator`: types, units, value ranges, metadata,
/// correlations, workouts) and stored through the same durable path, under a foreign source.
///
/// The source is made here from the batch's origin and source name — `@import/<origin>/<name>`,
/// a bundle identifier no app manifest can carry (ids never start with "@", like the user's own
/// `@user`) — so imported data never speaks as an installed app, and apps see it as HealthKit
/// shows samples of other sources: by read permission, named "<name> (<origin>)".
enum ImportService {
    static let maxOriginLength = 64
    static let maxSourceNameLength = 200
    /// An app manifest's version bound (`AppManifest.problems`); an export's sourceVersion had none.
    static let maxSourceVersionLength = 64

    static func importSamples(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        var batch = try ImportBatch(wire: payload)
        guard !batch.samples.isEmpty else { throw HKError(.errorInvalidArgument, "an import batch holds no samples") }
        try SavedSampleBound.check(batch.samples, payloadBytes: payload.count)
        let source = try source(of: batch)
        let types = typeIdentifiers(of: batch)
        CallAccessReport.record(appID: nil, types: types, detail: "import from \(batch.origin)")
        // Checked and canonicalized where the batch lies (no copy of its samples).
        try SampleValidator.canonicalize(batch: &batch.samples)
        for index in batch.samples.indices { batch.samples[index].source = nil }
        let canonical = batch.samples
        let routes = try routes(of: batch, canonical: canonical)
        // The importer's word that these identities name their samples' type and start: taken
        // from the manager socket only (this method), for the import's own source.
        let dated = batch.datedMask
        // The entry commits with the batch (one transaction, one fsync), as an app's save's does.
        let report = CallAccessReport.current
        let entry = report?.entryForWrite(appID: nil, types: types).map { draft in
            var draft = draft
            draft.detail = "import from \(batch.origin)"
            return draft
        }
        let outcome = try await context.store.withDatabase {
            try await $0.samples.importBatch(canonical, dated: dated, routes: routes, source: source, accessLog: entry)
        }
        if entry != nil {
            report?.committedWithEntry(appID: nil, types: types, count: outcome.added)
        } else {
            CallAccessReport.record(appID: nil, types: types, count: outcome.added, detail: "import from \(batch.origin)")
        }
        context.logger.info("imported", metadata: ["origin": "\(batch.origin)", "added": "\(outcome.added)",
                                                  "unchanged": "\(outcome.unchanged)"])
        return MethodTable.Reply(ImportOutcome(added: outcome.added, unchanged: outcome.unchanged,
                                               routesAdded: outcome.routesAdded, routesUnchanged: outcome.routesUnchanged))
    }

    /// The types a batch holds, sorted, for its access-log entry. A run of samples of one type
    /// adds its identifier once (comparing is cheaper than hashing it for every sample).
    static func typeIdentifiers(of batch: ImportBatch) -> [String] {
        var types = Set<String>()
        var previous: String?
        for index in batch.samples.indices where batch.samples[index].typeIdentifier != previous {
            previous = batch.samples[index].typeIdentifier
            types.insert(batch.samples[index].typeIdentifier)
        }
        if !batch.routes.isEmpty { types.insert(HKWorkoutRouteTypeIdentifier) }
        return types.sorted()
    }

    /// The batch's routes, checked as an app's route data (`RouteLocationValidator`), each of a
    /// workout in a batch of workouts only (so every sample has exactly one UUID), sorted by time,
    /// named for de-duplication after their workout.
    static func routes(of batch: ImportBatch, canonical: [SampleRecord]) throws(HKError) -> [SampleRepository.ImportRoute] {
        guard !batch.routes.isEmpty else { return [] }
        guard canonical.allSatisfy({ $0.typeIdentifier == HKWorkoutTypeIdentifier }) else {
            throw HKError(.errorInvalidArgument, "routes travel only in a batch of workouts")
        }
        var routesOfWorkout: [Int: Int] = [:]
        return try batch.routes.map { (route) throws(HKError) in
            guard canonical.indices.contains(route.workoutIndex) else {
                throw HKError(.errorInvalidArgument, "a route names workout \(route.workoutIndex) of a batch of \(canonical.count)")
            }
            guard !route.locations.isEmpty, route.locations.count <= SampleLimits.maximumRouteLocations else {
                throw HKError(.errorInvalidArgument, "a route holds 1 to \(SampleLimits.maximumRouteLocations) locations")
            }
            try RouteLocationValidator.check(route.locations)
            guard case let .string(workoutSync)? = canonical[route.workoutIndex].metadata[HKMetadataKeySyncIdentifier] else {
                throw HKError(.errorInvalidArgument, "an imported workout with a route needs a sync identifier")
            }
            let sorted = route.locations.sorted { $0.timestamp < $1.timestamp }
            let ordinal = routesOfWorkout[route.workoutIndex, default: 0]
            routesOfWorkout[route.workoutIndex] = ordinal + 1
            return SampleRepository.ImportRoute(workoutIndex: route.workoutIndex, locations: sorted,
                                                syncIdentifier: workoutSync + "/route\(ordinal)")
        }
    }

    /// The store's source for a batch. Origin and name are the user's (from the file they chose),
    /// bounded; the origin holds no '/', so `@import/<origin>/<name>` names one (origin, name) pair.
    /// Both in one spelling (NFC, `IdentityKeyText`): "Café" written two ways in two files, or in
    /// two runs of healthd, is one source, not two rows Swift sees as one key.
    static func source(of batch: ImportBatch) throws(HKError) -> SourceRecord {
        let origin = IdentityKeyText.oneSpelling(batch.origin).trimmingCharacters(in: .whitespaces)
        // `TextBound`: characters and bytes — the name and version come from the export file.
        guard !origin.isEmpty, TextBound.fits(origin, characters: maxOriginLength), !origin.contains("/") else {
            throw HKError(.errorInvalidArgument, "an import's origin must be 1–\(maxOriginLength) characters (at most \(maxOriginLength * 4) UTF-8 bytes) without '/'")
        }
        let name = IdentityKeyText.oneSpelling(batch.sourceName)
        guard TextBound.fits(name, characters: maxSourceNameLength) else {
            throw HKError(.errorInvalidArgument,
                          "a source name may have at most \(maxSourceNameLength) characters (\(maxSourceNameLength * 4) UTF-8 bytes)")
        }
        guard TextBound.fits(batch.sourceVersion ?? "", characters: maxSourceVersionLength) else {
            throw HKError(.errorInvalidArgument,
                          "a source version may have at most \(maxSourceVersionLength) characters (\(maxSourceVersionLength * 4) UTF-8 bytes)")
        }
        let display = name.isEmpty ? "Imported from \(origin)" : "\(name) (\(origin))"
        return SourceRecord(bundleIdentifier: "\(SourceRecord.importedPrefix)\(origin)/\(name)", name: display, version: batch.sourceVersion)
    }
}
