import GRDB
public import HealthModel

extension SampleRepository {
    /// Stores an imported batch through the save path (`write`: the same rows, sync-identifier
    /// upserts, change numbers and group commit as an app's save) and tells apart what was new
    /// from what the source already held — a sample whose sync identifier the source stores at the
    /// same or a higher version changes nothing. Both are decided in the one transaction.
    public func importBatch(_ records: [SampleRecord], source: SourceRecord) async throws -> (added: Int, unchanged: Int) {
        try await commits.submit { db in
            let sourceID = try Self.sourceID(db, source)
            var unchanged = 0
            for record in records {
                guard let sync = record.syncIdentity,
                      let stored = try SyncedObject.find(db, source: sourceID, identifier: sync.identifier),
                      stored.version >= sync.version else { continue }
                unchanged += 1
            }
            _ = try Self.write(records, source: source, db)
            return (records.count - unchanged, unchanged)
        }
    }
}
