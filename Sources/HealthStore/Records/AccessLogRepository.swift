public import Foundation
import GRDB
public import HealthModel

/// The append-only, hash-chained access log (DESIGN.md §7.9).
///
/// Each entry's hash covers its columns and the previous entry's hash, and the newest sequence
/// and hash are kept in the head (the `counters` row `headCounter`, v37), written in the same
/// transaction as the entry. So an edited entry, a deleted entry (a gap in the sequence) and
/// deleted newest entries (the head points past the table) are all found by `verify()`.
///
/// What this does not stop: the log lives in the encrypted store, so whoever can change it at
/// all holds the data key, and such a party can also rewrite every hash after an edit and the
/// head with them. The chain detects edits made without recomputing it (a careless tool, a
/// partial restore, a bug), not a determined holder of the key; that needs a head kept outside
/// the store (an external witness), which this design does not have.
public struct AccessLogRepository: Sendable {
    let writer: any DatabaseWriter
    /// The store's one group-commit queue, shared with `SampleRepository`: entries written
    /// through `appendGrouped` share commits with saves and with each other.
    let commits: GroupCommitQueue

    /// The `counters` row holding the chain's head: the newest sequence in `value`, its hash in
    /// `hash`. Beside the change number, which every save also bumps, so the two share a page
    /// and a save's commit writes one frame for both (v37, `registerAccessLogHeadInCounters`).
    static let headCounter = "access_log_head"

    /// Appends one entry and advances the head, in its own transaction. Returns its sequence
    /// number. For callers that cannot suspend (the accept thread); calls use `appendGrouped`.
    @discardableResult
    public func append(actor: String, appID: String?, action: AccessAction, types: [String], count: Int,
                       detail: String = "", at date: Date = Date()) throws -> Int64 {
        let draft = AccessLogEntryDraft(actor: actor, appID: appID, action: action, types: types, detail: detail, date: date)
        return try writer.write { db in try Self.write(draft, count: count, db) }
    }

    /// Appends one entry through the group-commit queue and returns once it is durable: entries
    /// of calls that end together (and saves running meanwhile) share one commit and one fsync.
    @discardableResult
    public func appendGrouped(_ draft: AccessLogEntryDraft, count: Int) async throws -> Int64 {
        try await commits.submit(returning: { db in try Self.write(draft, count: count, db) })
    }

    /// Writes the entry and advances the head inside the caller's transaction: the one place an
    /// entry is hashed into the chain. The head is read in the same transaction, so entries
    /// written by concurrent savepoints of one group commit still chain in order.
    ///
    /// Every save writes an entry in its own transaction, so this is on the durable save's path:
    /// its three statements are the writer connection's cached ones, bound value by value and
    /// stepped in SQLite directly (`BoundStatement`), and the types' JSON is written without an
    /// encoder (`typesJSON`). Stepping directly skips GRDB's per-statement work (its scheduling
    /// and abort checks, its observation broker, argument arrays, `Row`s) — nothing GRDB's
    /// observers need: none watches `access_log`, and the one watching `counters`
    /// (`CommitWatcher`) ignores the head's row.
    @discardableResult
    static func write(_ draft: AccessLogEntryDraft, count: Int, _ db: Database) throws -> Int64 {
        let typesJSON = try typesJSON(draft.types)
        let readHead = try BoundStatement(db, Self.readHeadSlot)
        try readHead.bind(headCounter, at: 1)
        let head = try readHead.readFirstRow { row in (sequence: row.int64(0), hash: row.bytes(1)) }
        let sequence: Int64 = (head?.sequence ?? 0) + 1
        // A head without a hash (`counters.hash` may be NULL) chains from the start, which `verify`
        // then reports, instead of stopping every logged call.
        let previousHash: [UInt8] = head?.hash ?? AccessLogChainHash.genesis
        let fields = AccessLogChainHash.Fields(
            sequence: sequence, timeMicros: draft.date.microsecondsSince1970, actor: draft.actor, appID: draft.appID,
            action: draft.action.rawValue, typesJSON: typesJSON, count: Int64(count), detail: draft.detail,
            previousHash: previousHash)
        let hash = try AccessLogChainHash.hash(fields)
        let insert = try BoundStatement(db, Self.insertSlot)
        try insert.bind(sequence, at: 1)
        try insert.bind(fields.timeMicros, at: 2)
        try insert.bind(draft.actor, at: 3)
        try insert.bind(draft.appID, at: 4)
        try insert.bind(fields.action, at: 5)
        try insert.bind(typesJSON, at: 6)
        try insert.bind(fields.count, at: 7)
        try insert.bind(draft.detail, at: 8)
        try insert.bind(blob: previousHash, at: 9)
        try insert.bind(blob: hash, at: 10)
        try insert.stepDirectly(db)
        // An UPDATE of the head's row, which is there from a store's first entry on: an upsert
        // first tries the insert (a search of `counters`' key for the conflict) and then updates,
        // 29 VM steps against 20 (issue 17, Benchmarks/README.md "Session 23").
        let advanceHead = try BoundStatement(db, Self.advanceHeadSlot)
        try advanceHead.bind(sequence, at: 1)
        try advanceHead.bind(blob: hash, at: 2)
        try advanceHead.bind(headCounter, at: 3)
        try advanceHead.stepDirectly(db)
        if db.changesCount == 0 {
            let firstHead = try BoundStatement(db, Self.firstHeadSlot)
            try firstHead.bind(headCounter, at: 1)
            try firstHead.bind(sequence, at: 2)
            try firstHead.bind(blob: hash, at: 3)
            try firstHead.stepDirectly(db)
        }
        return sequence
    }

    /// The entry's three statements, found without GRDB's look-up by SQL text (`StatementSlot`).
    private static let readHeadSlot = StatementSlot("SELECT value, hash FROM counters WHERE name = ?")
    private static let insertSlot = StatementSlot("""
        INSERT INTO access_log (sequence, time_us, actor, app_id, action, types, count, detail, prev_hash, hash)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
    private static let advanceHeadSlot = StatementSlot("UPDATE counters SET value = ?, hash = ? WHERE name = ?")
    private static let firstHeadSlot = StatementSlot("INSERT INTO counters (name, value, hash) VALUES (?, ?, ?)")

    /// The `types` column: the JSON array `JSONEncoder` makes of the identifiers, byte for byte,
    /// since the chain hash covers this text and `verify()` recomputes it from the stored column.
    /// Identifiers of ASCII letters, digits, '_', '.' and '-' (every HealthKit type identifier)
    /// are ones `JSONEncoder` writes unescaped, so the array is written by hand; anything else
    /// goes through `JSONEncoder` itself (the encoder was a quarter of the entry's cost in a
    /// profile of one-sample saves: Benchmarks/README.md, "Session 8").
    static func typesJSON(_ types: [String]) throws -> String {
        guard types.allSatisfy(isPlainIdentifier) else {
            return String(decoding: try JSONEncoder().encode(types), as: UTF8.self)
        }
        var json = "["
        for (position, type) in types.enumerated() {
            json += position == 0 ? "\"" : ",\""
            json += type
            json += "\""
        }
        return json + "]"
    }

    private static func isPlainIdentifier(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }

    /// `append` inside the caller's transaction (the pending journal's merge records an entry
    /// with the effects it logs), hashed into the chain by the one writer, `write`.
    @discardableResult
    static func append(_ db: Database, actor: String, appID: String?, action: AccessAction, types: [String],
                       count: Int, detail: String, at date: Date) throws -> Int64 {
        try write(AccessLogEntryDraft(actor: actor, appID: appID, action: action, types: types, detail: detail, date: date),
                  count: count, db)
    }

    /// Entries after sequence `since`, oldest first; only those about `appID` (as actor or
    /// subject) when given. With `limit`, the newest `limit` of them.
    /// With `before`, only entries older than that sequence: a listing read a page at a time,
    /// newest page first (`AccessLogService.list`), holds one page in memory, not the whole log.
    public func entries(since: Int64 = 0, before: Int64? = nil, appID: String? = nil, limit: Int? = nil) throws -> [AccessLogEntry] {
        try writer.read { db in
            let (sql, arguments) = Self.listing(since: since, before: before, appID: appID, limit: limit)
            return try Row.fetchAll(db, sql: sql, arguments: arguments).reversed().map(Self.entry)
        }
    }

    /// The statement `entries` runs, newest first. An app's entries are those naming it as
    /// subject or actor; with no index on `actor`, SQLite reads the log by sequence for that,
    /// which is why the log has no per-app index (v37 dropped one no plan used).
    static func listing(since: Int64, before: Int64? = nil, appID: String?, limit: Int?) -> (sql: String, arguments: StatementArguments) {
        var sql = "SELECT * FROM access_log WHERE sequence > ?"
        var arguments: StatementArguments = [since]
        if let before {
            sql += " AND sequence < ?"
            arguments += [before]
        }
        if let appID {
            sql += " AND (app_id = ? OR actor = ?)"
            arguments += [appID, appID]
        }
        sql += " ORDER BY sequence DESC"
        if let limit {
            sql += " LIMIT ?"
            arguments += [max(limit, 0)]
        }
        return (sql, arguments)
    }

    /// Walks the whole chain from entry 1 and reports the first problem, or that it is intact.
    public func verify() throws -> AccessLogVerification {
        try writer.read { db in
            var expected: Int64 = 1
            var previousHash = AccessLogChainHash.genesis
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM access_log ORDER BY sequence")
            while let row = try rows.next() {
                let sequence: Int64 = row["sequence"]
                guard sequence == expected else { return .damaged(AccessLogDamage(sequence: expected, kind: .missingEntry)) }
                let storedHash = [UInt8](row["hash"] as Data? ?? Data())
                let storedPrevious = [UInt8](row["prev_hash"] as Data? ?? Data())
                let recomputed = try AccessLogChainHash.hash(Self.fields(row, previousHash: storedPrevious))
                guard recomputed == storedHash else { return .damaged(AccessLogDamage(sequence: sequence, kind: .editedEntry)) }
                guard storedPrevious == previousHash else { return .damaged(AccessLogDamage(sequence: sequence, kind: .brokenChain)) }
                previousHash = storedHash
                expected += 1
            }
            let newest = expected - 1
            guard let head = try Row.fetchOne(db, sql: "SELECT value AS sequence, hash FROM counters WHERE name = ?",
                                              arguments: [Self.headCounter]) else {
                return newest == 0 ? .intact(entries: 0) : .damaged(AccessLogDamage(sequence: newest, kind: .headMismatch))
            }
            let headSequence: Int64 = head["sequence"]
            if headSequence > newest { return .damaged(AccessLogDamage(sequence: newest + 1, kind: .missingEntry)) }
            guard headSequence == newest, [UInt8](head["hash"] as Data? ?? Data()) == previousHash else {
                return .damaged(AccessLogDamage(sequence: newest, kind: .headMismatch))
            }
            return .intact(entries: Int(newest))
        }
    }

    /// The hashed fields of a stored row, read without interpretation (NULLs and wrong types
    /// become values that cannot match the hash, so they show as edits, not crashes).
    private static func fields(_ row: Row, previousHash: [UInt8]) -> AccessLogChainHash.Fields {
        AccessLogChainHash.Fields(
            sequence: row["sequence"], timeMicros: row["time_us"] ?? 0, actor: row["actor"] ?? "",
            appID: row["app_id"], action: row["action"] ?? "", typesJSON: row["types"] ?? "",
            count: row["count"] ?? 0, detail: row["detail"] ?? "", previousHash: previousHash)
    }

    private static func entry(_ row: Row) -> AccessLogEntry {
        let typesJSON: String = row["types"] ?? "[]"
        let types = (try? JSONDecoder().decode([String].self, from: Data(typesJSON.utf8))) ?? [typesJSON]
        return AccessLogEntry(
            sequence: row["sequence"], date: Date(microsecondsSince1970: row["time_us"] ?? 0),
            actor: row["actor"] ?? "", appID: row["app_id"], action: row["action"] ?? "",
            types: types, count: row["count"] ?? 0, detail: row["detail"] ?? "")
    }
}
