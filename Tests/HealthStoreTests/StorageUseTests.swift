import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// v59's running count of what each writer's rows occupy (`storage_use`): kept by triggers on
/// every counted table, it must equal a recount from scratch after any mix of writes, and no
/// table that hangs off a counted row may be missed (a table added later fails here until it
/// is counted or named as not counted).
@Suite(.timeLimit(.minutes(10))) struct StorageUseTests {
    static let app = "org.example.cuff"
    static let other = "org.example.other"
    static let source = SourceRecord(bundleIdentifier: app, name: "Cuff", version: "1")
    static let otherSource = SourceRecord(bundleIdentifier: other, name: "Other", version: "1")
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func database() throws -> HealthDatabase {
        let database = try HealthDatabase(writer: DatabaseQueue())
        for id in [app, other] {
            _ = try database.apps.install(AppManifest(id: id, displayName: id, executable: "/usr/bin/true", version: "1"))
        }
        return database
    }

    static func steps(_ value: Double, at offset: TimeInterval, metadata: [String: MetadataValue] = [:]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start.addingTimeInterval(offset),
                     endDate: start.addingTimeInterval(offset + 60), value: .quantity(value, unit: "count"), metadata: metadata)
    }

    /// Running and recounted use agree (owners at 0 are the same as absent).
    static func expectConsistent(_ database: HealthDatabase, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let counted = try database.storageUse.counted().filter { $0.value != 0 }
        let recounted = try database.storageUse.recounted().filter { $0.value != 0 }
        #expect(counted == recounted, "after \(step)", sourceLocation: sourceLocation)
    }

    @Test func theRunningCountEqualsARecountAfterSavesUpsertsAndDeletions() async throws {
        let database = try Self.database()
        try Self.expectConsistent(database, "nothing")
        #expect(try database.storageUse.entry(appID: Self.app).usedBytes == 0)

        // Extremes as values and metadata: the measure is the bytes stored, whatever they are.
        let batch = [Self.steps(0, at: 0), Self.steps(1e308, at: 60), Self.steps(42, at: 120,
                     metadata: ["note": .string(String(repeating: "é\u{0}", count: 500))])]
        let uuids = try await database.samples.insert(batch, source: Self.source)
        try Self.expectConsistent(database, "a batch")
        let afterBatch = try database.storageUse.entry(appID: Self.app).usedBytes
        #expect(afterBatch > 1_000, "the 500 two-byte-plus-NUL note alone is 1,500 bytes")
        #expect(try database.storageUse.entry(appID: Self.other).usedBytes == 0, "another app's count is untouched")

        // A sync upsert replaces an object: the old one's bytes go, the new one's come.
        let synced = { (version: Double) in
            Self.steps(version, at: 600, metadata: [HKMetadataKeySyncIdentifier: .string("s-1"), HKMetadataKeySyncVersion: .number(version)])
        }
        _ = try await database.samples.insert([synced(1)], source: Self.source)
        _ = try await database.samples.insert([synced(2)], source: Self.source)
        try Self.expectConsistent(database, "sync upserts")

        // Another source's writes count to it alone.
        _ = try await database.samples.insert([Self.steps(7, at: 0)], source: Self.otherSource)
        try Self.expectConsistent(database, "another source's save")

        // Deleting gives the object's bytes back; its tombstone stays counted.
        let before = try database.storageUse.entry(appID: Self.app).usedBytes
        _ = try await database.samples.delete([ObjectReference(typeIdentifier: Self.steps, uuid: uuids[2])], appID: Self.app)
        try Self.expectConsistent(database, "a deletion")
        #expect(try database.storageUse.entry(appID: Self.app).usedBytes < before - 1_000)

        _ = try await database.samples.deleteMatching(typeIdentifier: Self.steps, predicate: nil, appID: Self.app,
                                                      workouts: .ownSamples(appID: Self.app))
        try Self.expectConsistent(database, "deleting everything of the app")
        let tombstones = try database.storageUse.entry(appID: Self.app).usedBytes
        #expect(tombstones > 0 && tombstones < afterBatch, "only the tombstones are left: \(tombstones)")
    }

    @Test func everyTableHangingOffACountedRowIsCountedOrNamedAsNotCounted() throws {
        let database = try Self.database()
        try database.writer.read { db in
            let plan = try StorageUseSQL.plan(db)
            let roots = Set(StorageUseSQL.roots.map(\.table))
            let counted = Set(plan.children.map(\.table)).union(roots)
            let triggers = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'"))
            for root in roots {
                let children = try String.fetchAll(db, sql: """
                    SELECT DISTINCT m.name FROM sqlite_master m, pragma_foreign_key_list(m.name) f
                    WHERE m.type = 'table' AND f."table" = ?
                    """, arguments: [root])
                for child in children {
                    #expect(counted.contains(child) || StorageUseSQL.notCounted.contains(child),
                            "\(child) references \(root) but is neither counted nor named in StorageUseSQL.notCounted")
                }
            }
            for table in counted {
                for event in ["insert", "delete", "update"] {
                    #expect(triggers.contains("storage_use_\(table)_\(event)"), "no \(event) trigger on \(table)")
                }
            }
            // A deletion sums each child by its parent key: that must be an index lookup, or
            // deleting n objects would scan every child table n times.
            for child in plan.children {
                let plans = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT * FROM \(child.table) c WHERE c.\(child.column) = 1")
                let details = plans.map { $0["detail"] as String }
                #expect(details.contains { $0.contains("USING") }, "\(child.table).\(child.column) has no index: \(details)")
            }
        }
    }
}
