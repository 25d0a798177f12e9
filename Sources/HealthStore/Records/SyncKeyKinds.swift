import GRDB

/// Which kinds of sync key an import's source holds (`import_sync_key_kinds`, v58): plain
/// (`SyncKey.of`) and dated (`SyncKey.dated`). `SyncLookup` searches a source only under the kinds
/// it holds, so the first import of a file searches nothing and a re-import searches once per
/// sample, instead of twice for every new sample (issue 16).
///
/// A kind once noted stays noted ("may hold"): deleting objects never clears it, which costs at
/// most a search that finds nothing. It is noted in the transaction that stores the first key of
/// its kind (`SyncLookup.keyForStoring`, called by the one insert path, `SampleInserter`), so a
/// rolled-back write takes its note with it. v58 notes both kinds for every import source that
/// existed before it.
struct SyncKeyKinds: Equatable {
    var dated: Bool
    var undated: Bool

    func holds(dated keyIsDated: Bool) -> Bool { keyIsDated ? dated : undated }

    mutating func note(dated keyIsDated: Bool) {
        if keyIsDated { dated = true } else { undated = true }
    }

    /// The kinds recorded for `sourceID`; none for a source without a row (it stored no key yet).
    static func read(sourceID: Int64, _ db: Database) throws -> SyncKeyKinds {
        let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT dated, undated FROM import_sync_key_kinds WHERE source_id = ?"),
                                   arguments: [sourceID])
        return SyncKeyKinds(dated: row?["dated"] ?? false, undated: row?["undated"] ?? false)
    }

    /// Records these kinds for `sourceID` (never clearing one already recorded).
    func write(sourceID: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO import_sync_key_kinds (source_id, dated, undated) VALUES (?, ?, ?)
            ON CONFLICT(source_id) DO UPDATE SET dated = max(dated, excluded.dated), undated = max(undated, excluded.undated)
            """).execute(arguments: [sourceID, dated, undated])
    }
}
