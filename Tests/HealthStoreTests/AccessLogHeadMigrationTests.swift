import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// v37 moves the access log's chain head into `counters`, beside the change number, so the two
/// rows every logged save rewrites share one page (one WAL frame fewer per save). A store logged
/// before it must keep its chain whole, and the head must still do its job afterwards: report
/// deleted newest entries.
@Suite(.timeLimit(.minutes(10))) struct AccessLogHeadMigrationTests {
    static let lastMigrationBeforeTheMove = "v36: sync identifiers indexed by a compact key"
    static let app = "org.example.app"

    /// `count` entries chained as v3's schema stored them: the rows, and the head in
    /// `access_log_head`.
    static func logAsBeforeV37(_ count: Int, _ db: Database) throws {
        var previous = AccessLogChainHash.genesis
        for sequence in 1...Int64(count) {
            let fields = AccessLogChainHash.Fields(
                sequence: sequence, timeMicros: 1_700_000_000_000_000 + sequence, actor: app, appID: app, action: "write",
                typesJSON: "[\"HKQuantityTypeIdentifierStepCount\"]", count: sequence, detail: "", previousHash: previous)
            let hash = try AccessLogChainHash.hash(fields)
            try db.execute(sql: """
                INSERT INTO access_log (sequence, time_us, actor, app_id, action, types, count, detail, prev_hash, hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [sequence, fields.timeMicros, app, app, fields.action, fields.typesJSON, fields.count, "",
                                 Data(previous), Data(hash)])
            previous = hash
        }
        try db.execute(sql: "INSERT INTO access_log_head (id, sequence, hash) VALUES (1, ?, ?)",
                       arguments: [Int64(count), Data(previous)])
    }

    /// A migrated store's chain verifies, continues, and its head still reports deleted newest
    /// entries. Without the migration's copy of the head, `verify` reports the head missing.
    @Test func aLogWrittenBeforeTheMoveStaysIntactAndKeepsItsHead() throws {
        let writer = try SyncKeyTests.memoryStore()
        try StoreSchema.migrator.migrate(writer, upTo: Self.lastMigrationBeforeTheMove)
        try writer.write { try Self.logAsBeforeV37(3, $0) }
        let database = try HealthDatabase(writer: writer)
        #expect(try database.accessLog.verify() == .intact(entries: 3))
        try database.accessLog.append(actor: Self.app, appID: Self.app, action: .read, types: [], count: 0)
        #expect(try database.accessLog.verify() == .intact(entries: 4))
        try writer.write { try $0.execute(sql: "DELETE FROM access_log WHERE sequence >= 3") }
        #expect(try database.accessLog.verify() == .damaged(AccessLogDamage(sequence: 3, kind: .missingEntry)))
    }

    /// An empty log migrates to an empty log (no head row), and its first entry starts the chain.
    @Test func anEmptyLogStaysEmptyAndStartsItsChain() throws {
        let writer = try SyncKeyTests.memoryStore()
        try StoreSchema.migrator.migrate(writer, upTo: Self.lastMigrationBeforeTheMove)
        let database = try HealthDatabase(writer: writer)
        #expect(try database.accessLog.verify() == .intact(entries: 0))
        try database.accessLog.append(actor: Self.app, appID: Self.app, action: .read, types: [], count: 0)
        #expect(try database.accessLog.verify() == .intact(entries: 1))
    }

    /// The head is a row of `counters`: removing it while entries exist is reported, as removing
    /// v3's head row was.
    @Test func aRemovedHeadIsReported() throws {
        let writer = try SyncKeyTests.memoryStore()
        let database = try HealthDatabase(writer: writer)
        for _ in 0..<2 { try database.accessLog.append(actor: Self.app, appID: Self.app, action: .read, types: [], count: 0) }
        try writer.write { try $0.execute(sql: "DELETE FROM counters WHERE name = ?", arguments: [AccessLogRepository.headCounter]) }
        #expect(try database.accessLog.verify() == .damaged(AccessLogDamage(sequence: 2, kind: .headMismatch)))
    }
}

extension AccessLogHeadMigrationTests {
    /// Why v37 could drop `access_log_by_app`: the per-app listing reads the log by sequence with
    /// that index present (v36's schema, thousands of entries of many apps, planner statistics
    /// from ANALYZE), so the index only cost a page per logged commit.
    @Test(arguments: [nil, 50] as [Int?]) func thePerAppListingReadsTheLogBySequenceEvenWithTheOldIndex(limit: Int?) throws {
        let writer = try SyncKeyTests.memoryStore()
        try StoreSchema.migrator.migrate(writer, upTo: Self.lastMigrationBeforeTheMove)
        let plan = try writer.write { db in
            for sequence in 1...4_000 {
                let app = "org.example.app\(sequence % 40)"
                try db.execute(sql: """
                    INSERT INTO access_log (sequence, time_us, actor, app_id, action, types, count, detail, prev_hash, hash)
                    VALUES (?, 0, ?, ?, 'read', '[]', 1, '', x'', x'')
                    """, arguments: [sequence, sequence % 3 == 0 ? "manager" : app, app])
            }
            try db.execute(sql: "ANALYZE access_log")
            let (sql, arguments) = AccessLogRepository.listing(since: 0, appID: "org.example.app7", limit: limit)
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String? ?? "" }
        }
        #expect(plan.contains { $0.contains("INTEGER PRIMARY KEY") }, "plan: \(plan)")
        #expect(!plan.contains { $0.contains("access_log_by_app") }, "plan: \(plan)")
    }
}
