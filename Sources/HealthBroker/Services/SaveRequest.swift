import HealthModel
import HealthStore
import HealthWire

/// A Save call's request as both of its paths check it (`AppService.save` on the pool,
/// `AppService.saveOnReader` on the connection's reader thread): decoded, its types known, and,
/// once `canonicalize` ran, ready for the store. One copy of these checks, so the two paths
/// cannot drift apart.
struct SaveRequest {
    /// Checked, canonicalized and stored where they lie: a 1,000-sample save is not copied on
    /// its way to the store (issue 17).
    var records: [SampleRecord]
    /// The types the app needs share permission for (`SampleRecord.forEachShareTypeIdentifier`):
    /// a correlation for the types it holds (its own type has none), a workout for its own type
    /// and its statistics' types.
    let shareTypes: Set<String>
    /// What the access-log entry names: the share types and the records' own types, sorted.
    let loggedTypes: [String]

    init(wire payload: [UInt8]) throws {
        records = try SampleList(wire: payload).samples
        guard !records.isEmpty else { throw HKError(.errorInvalidArgument, "nothing to save") }
        try SavedSampleBound.check(records, payloadBytes: payload.count)
        var types = Set<String>()
        var logged = Set<String>()
        var previous: String?
        for record in records {
            // A run of samples of one type adds nothing after its first (comparing is cheaper
            // than hashing); a correlation's or a workout's share types depend on what it holds,
            // not its type.
            if record.typeIdentifier == previous, !record.carriesValuesOfOtherTypes { continue }
            previous = record.typeIdentifier
            record.forEachShareTypeIdentifier { types.insert($0) }
            logged.insert(record.typeIdentifier)
        }
        logged.formUnion(types)
        for type in types.sorted() where HKObjectType.type(forIdentifier: type) == nil {
            throw HKError(.errorInvalidArgument, "unknown sample type \(type.prefix(100))")
        }
        shareTypes = types
        loggedTypes = logged.sorted()
    }

    /// Validates and canonicalizes the records for `app`, after its share check, and returns the
    /// source they are saved under. Identity and UUIDs come from the broker: whatever the app
    /// put in these fields is dropped.
    mutating func canonicalize(for app: AppManifest) throws -> SourceRecord {
        try SampleValidator.canonicalize(batch: &records)
        for index in records.indices { records[index].source = nil }
        return app.source
    }
}
