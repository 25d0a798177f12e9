import GRDB
public import HealthModel

/// App ids that are neither installed apps nor sources of stored data: a priority order cannot
/// name them.
public struct UnknownSourcesError: Error, Equatable, Sendable {
    public let appIDs: [String]
}

/// The user's source priority per type, and the sources the manager lists.
///
/// The effective order of a type's sources: first those the user placed, in the user's order;
/// then every other source by bundle identifier. Not by when a source first wrote: that is
/// decided by writes a reader may not see (another type, data outside its window, a route
/// draft), and DESIGN §7.3 wants no ordering an app sees to share state with other apps'
/// hidden writes (SECURITY.md "Source order and names").
public struct SourcePriorityRepository: Sendable {
    let writer: any DatabaseWriter

    /// Replaces the order of `typeIdentifier` with `appIDs` (highest first). Every id must be
    /// an installed app or a source of stored data; otherwise nothing changes and
    /// `UnknownSourcesError` lists the others.
    public func setOrder(_ appIDs: [String], typeIdentifier: String) throws {
        try writer.write { db in
            let known = try Self.knownIDs(db)
            let unknown = appIDs.filter { !known.contains($0) }
            guard unknown.isEmpty else { throw UnknownSourcesError(appIDs: unknown) }
            try db.execute(sql: "DELETE FROM source_priority WHERE type_identifier = ?", arguments: [typeIdentifier])
            for (rank, appID) in appIDs.enumerated() {
                try db.execute(sql: "INSERT INTO source_priority (type_identifier, bundle_identifier, rank) VALUES (?, ?, ?)",
                               arguments: [typeIdentifier, appID, rank])
            }
        }
    }

    /// Forgets the user's order of `typeIdentifier`: its sources fall back to the default order.
    public func reset(typeIdentifier: String) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM source_priority WHERE type_identifier = ?", arguments: [typeIdentifier])
        }
    }

    /// With a type: the sources that hold samples of it or that the user placed, in its
    /// effective order, with their sample counts of that type. Without: every source and every
    /// installed app, in the default order (sources by bundle identifier, then apps that never
    /// saved, by id), with all their samples counted. Apps appear whatever their grants: this is
    /// the user's own view.
    public func list(typeIdentifier: String?) throws -> [SourceEntry] {
        try writer.read { db in
            // Keyed by Swift's equality, never with `uniqueKeysWithValues`: the store's keys are
            // unique by bytes, and an older version could store one key in two canonically
            // equivalent spellings (an imported "Café" as NFC and NFD, an app id with a KELVIN
            // SIGN). Such rows list as one entry — the first row's name, every row's samples —
            // and never trap healthd (SECURITY.md, "Identity keys from outside text").
            let apps = try Dictionary(Row.fetchAll(db, sql: "SELECT id, display_name FROM apps ORDER BY id")
                .map { (row: Row) -> (String, String) in (row["id"], row["display_name"]) }, uniquingKeysWith: { first, _ in first })
            let userOrder = try typeIdentifier.map { try Self.userOrder(db, typeIdentifier: $0) } ?? []
            let counts = try Self.sampleCounts(db, typeIdentifier: typeIdentifier)
            let sources = try Row.fetchAll(db, sql: "SELECT id, bundle_identifier, name FROM sources ORDER BY bundle_identifier, id")
            var sourceRows: [String: (name: String, count: Int)] = [:]
            var ordered = userOrder
            for row in sources {
                let appID: String = row["bundle_identifier"]
                sourceRows[appID, default: (row["name"], 0)].count += counts[row["id"]] ?? 0
            }
            for row in sources {
                let appID: String = row["bundle_identifier"]
                if !ordered.contains(appID), typeIdentifier == nil || (sourceRows[appID]?.count ?? 0) > 0 { ordered.append(appID) }
            }
            if typeIdentifier == nil { ordered += apps.keys.filter { !ordered.contains($0) }.sorted() }
            return ordered.map { appID in
                let source = sourceRows[appID]
                return SourceEntry(appID: appID, name: apps[appID] ?? source?.name ?? appID, installed: apps[appID] != nil,
                                   sampleCount: source?.count ?? 0, orderedByUser: userOrder.contains(appID))
            }
        }
    }

    /// Every source in the effective order of `typeIdentifier`: what statistics merge by.
    static func rankedSources(_ db: Database, typeIdentifier: String) throws -> [(id: Int64, source: SourceRecord)] {
        try Row.fetchAll(db, sql: """
            SELECT s.id, s.bundle_identifier, s.name FROM sources s
            LEFT JOIN source_priority p ON p.type_identifier = ? AND p.bundle_identifier = s.bundle_identifier
            ORDER BY p.rank IS NULL, p.rank, s.bundle_identifier
            """, arguments: [typeIdentifier]).map { row in
            (row["id"], SourceRecord(bundleIdentifier: row["bundle_identifier"], name: row["name"]))
        }
    }

    private static func userOrder(_ db: Database, typeIdentifier: String) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT bundle_identifier FROM source_priority WHERE type_identifier = ? ORDER BY rank",
                            arguments: [typeIdentifier])
    }

    private static func sampleCounts(_ db: Database, typeIdentifier: String?) throws -> [Int64: Int] {
        let rows: [Row]
        if let typeIdentifier {
            rows = try Row.fetchAll(db, sql: """
                SELECT source_id, count(*) AS n FROM objects
                WHERE type_id = ? GROUP BY source_id
                """, arguments: [try SampleSQL.typeID(db, typeIdentifier)])
        } else {
            rows = try Row.fetchAll(db, sql: "SELECT source_id, count(*) AS n FROM objects GROUP BY source_id")
        }
        // Keyed by row id (unique by GROUP BY); summed all the same, so no row can trap it.
        return Dictionary(rows.map { ($0["source_id"], $0["n"]) }, uniquingKeysWith: +)
    }

    private static func knownIDs(_ db: Database) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT id FROM apps UNION SELECT bundle_identifier FROM sources"))
    }
}
