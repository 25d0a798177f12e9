import GRDB
import GRDBSQLite
public import HealthModel

/// The rows statistics are computed from: a quantity type's samples that a scope may see and
/// a predicate selects, grouped by source in the user's priority order for the type.
public struct StatisticsRepository: Sendable {
    let writer: any DatabaseWriter

    /// Reads, in one read transaction (so samples and priority agree), only the four columns
    /// statistics need. The scope's condition comes from `SampleSQL.visibility`, like every
    /// other query's: hidden rows are never read. Sources without matching samples are left out.
    /// `snapshot`: a stream's (`ReadSnapshot`) — a reading after its first reads only the rows
    /// committed by the first.
    public func samples(typeIdentifier: String, predicate: SamplePredicate?, scope: Visibility,
                        within snapshot: ReadSnapshot? = nil) throws -> [SourceSamples] {
        try writer.read { db in
            try Self.samples(db, typeIdentifier: typeIdentifier, predicate: predicate, scope: scope,
                             through: try snapshot.confinement(db))
        }
    }

    /// The same, inside a read the caller holds (activity summaries read several types at once);
    /// `through`: only rows committed by that change number (nil: every row the read sees).
    static func samples(_ db: Database, typeIdentifier: String, predicate: SamplePredicate?, scope visibility: Visibility,
                        through: Int64? = nil) throws -> [SourceSamples] {
        let typeID = try SampleSQL.typeID(db, typeIdentifier)
        var conditions = ["o.type_id = ?", "o.quantity IS NOT NULL"]
        var arguments: StatementArguments = [typeID]
        let visible = SampleSQL.visibility(visibility.scope)
        conditions.append(visible.sql)
        arguments += visible.arguments
        if let through {
            conditions.append("o.change_seq <= ?")
            arguments += [through]
        }
        if let predicate {
            let compiled = try SampleSQL.condition(predicate, of: typeIdentifier, within: visibility.bounded(through: through), db)
            conditions.append("(\(compiled.sql))")
            arguments += compiled.arguments
        }
        // Source, then start: the order of the (type, source, start, id, end, quantity,
        // series_count) index (v19, v23), so SQLite reads the index in order instead of sorting,
        // and only the index: it holds every column selected. The rowid breaks ties by saving order.
        let statement = try db.makeStatement(sql: """
            SELECT o.source_id, o.start_us, o.end_us, o.quantity, o.series_count, o.id FROM objects o
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY o.source_id, o.start_us, o.id
            """)
        statement.arguments = arguments
        var bySource: [Int64: [StatisticsSample]] = [:]
        var currentSource: Int64?
        var current: [StatisticsSample] = []
        var seriesSources: Set<Int64> = []
        let rows = try Row.fetchCursor(statement)
        // The columns are read from the statement's current row through SQLite's C API: a
        // year of per-minute samples is half a million rows, and GRDB's typed row subscripts
        // cost more per row than SQLite's step. None is NULL: `quantity IS NOT NULL` above,
        // and the others are NOT NULL columns.
        //
        // `forEach`, not `next()` per row: GRDB then steps the statement in one loop, with its
        // busy check once per query instead of once per row.
        let handle = statement.sqliteStatement
        try rows.forEach { _ in
            let source = sqlite3_column_int64(handle, 0)
            if source != currentSource {
                if let currentSource { bySource[currentSource] = current }
                currentSource = source
                current = []
            }
            // A quantity series counts by its quantities, each over its own interval, as
            // HealthKit's statistics do: a cumulative series is split across intervals by
            // where its quantities lie, not prorated as one sum over the sample's span.
            // Its count is in the covering index (v23), so only a series costs a lookup: its
            // side row, by the key of this visible row.
            if sqlite3_column_type(handle, 4) != SQLITE_NULL {
                current += try QuantitySeriesRows.data(objectID: sqlite3_column_int64(handle, 5), db).map { datum in
                    StatisticsSample(start: datum.start.microsecondsSince1970, end: datum.end.microsecondsSince1970, value: datum.value)
                }
                seriesSources.insert(source)
                return
            }
            current.append(StatisticsSample(start: sqlite3_column_int64(handle, 1), end: sqlite3_column_int64(handle, 2),
                                            value: sqlite3_column_double(handle, 3)))
        }
        if let currentSource { bySource[currentSource] = current }
        // A series' quantities start after its own start: restore start order where they were added.
        for source in seriesSources {
            bySource[source]?.sort { $0.span.start < $1.span.start }
        }
        guard !bySource.isEmpty else { return [] }
        return try SourcePriorityRepository.rankedSources(db, typeIdentifier: typeIdentifier).compactMap { ranked in
            bySource[ranked.id].map { SourceSamples(source: ranked.source, samples: $0) }
        }
    }
}

extension HealthDatabase {
    public var statistics: StatisticsRepository { StatisticsRepository(writer: writer) }
    public var sourcePriority: SourcePriorityRepository { SourcePriorityRepository(writer: writer) }
}
