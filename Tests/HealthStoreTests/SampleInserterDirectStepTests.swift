import Foundation
import GRDB
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

/// `SampleInserter` steps every row in SQLite directly (issue 17; until session 20 the first row of
/// each write ran through GRDB). What that must not change, on a real encrypted store: every write
/// is still announced to the commit hook (which SQLite's pre-update hook tells of every row), a row
/// that fails after the first fails its save alone with SQLite's error and leaves nothing of it,
/// the statement stays usable for the next save, and each row keeps its own values and the
/// write's shared ones (source, version, change number).
@Suite(.timeLimit(.minutes(10))) struct SampleInserterDirectStepTests {
    static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    static let mindful = "HKCategoryTypeIdentifierMindfulSession"

    static func source(_ name: String, version: String? = "1") -> SourceRecord {
        SourceRecord(bundleIdentifier: "org.example.\(name)", name: name, version: version)
    }

    /// A sample `minute` minutes into the day; `backwards` ends it before it starts, which only
    /// the table's CHECK refuses (the validator is not on this path).
    static func sample(_ type: String = sleep, minute: Int, value: Int = 0, sync: (String, Double)? = nil,
                       backwards: Bool = false) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(minute) * 60)
        var metadata: [String: MetadataValue] = [:]
        if let sync {
            metadata = [HKMetadataKeySyncIdentifier: .string(sync.0), HKMetadataKeySyncVersion: .number(sync.1)]
        }
        return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start,
                            endDate: start.addingTimeInterval(backwards ? -60 : 60), value: .category(value), metadata: metadata)
    }

    static func withStore(_ body: (HealthDatabase) async throws -> Void) async throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        try await body(database)
        try store.close()
    }

    static func rows(_ database: HealthDatabase) throws -> [Row] {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT o.uuid, t.identifier AS type, s.bundle_identifier AS source, o.source_version, o.start_us,
                       o.category, o.change_seq, o.sync_identifier
                FROM objects o JOIN sample_types t ON t.id = o.type_id JOIN sources s ON s.id = o.source_id
                ORDER BY o.id
                """)
        }
    }

    /// Rows stepped directly are not seen by GRDB's observers; the commit watcher hears of each
    /// from SQLite's pre-update hook. Here the first record of the second write is an ignored sync
    /// upsert (no row at all), so its first insert is the second record's, of another type than
    /// the rest.
    @Test func everyWriteIsAnnouncedWithAllItsTypes() async throws {
        try await Self.withStore { database in
            let heard = Mutex<[CommittedChange]>([])
            database.changeFeed.onCommit { change in heard.withLock { $0.append(change) } }
            let a = Self.source("a")
            _ = try await database.samples.insert((0 ..< 5).map { Self.sample(minute: $0, sync: $0 == 0 ? ("night", 2) : nil) }, source: a)
            _ = try await database.samples.insert([Self.sample(minute: 10, sync: ("night", 1)), Self.sample(minute: 11),
                                                   Self.sample(Self.mindful, minute: 12)], source: a)
            _ = try await database.samples.insert((20 ..< 30).map { Self.sample(Self.mindful, minute: $0) }, source: a)
            #expect(heard.withLock { $0 } == [
                CommittedChange(typeIdentifiers: [Self.sleep], change: 1),
                CommittedChange(typeIdentifiers: [Self.sleep, Self.mindful], change: 2),
                CommittedChange(typeIdentifiers: [Self.mindful], change: 3),
            ])
        }
    }

    /// The failing row is the third of its write (stepped directly); the error is SQLite's own,
    /// nothing of that save stays, and the next save (on the same cached statement) stores all
    /// of its rows.
    @Test func aRowThatFailsAfterTheFirstFailsItsSaveAloneAndTheStatementStaysUsable() async throws {
        try await Self.withStore { database in
            let a = Self.source("a")
            let kept = try await database.samples.insert([Self.sample(minute: 0)], source: a)
            await #expect {
                _ = try await database.samples.insert([Self.sample(minute: 1), Self.sample(minute: 2), Self.sample(minute: 3, backwards: true),
                                                       Self.sample(minute: 4)], source: a)
            } throws: { error in
                (error as? DatabaseError)?.extendedResultCode == .SQLITE_CONSTRAINT_CHECK
            }
            let after = try await database.samples.insert((5 ..< 8).map { Self.sample(minute: $0) }, source: a)
            let rows = try Self.rows(database)
            #expect(rows.map { $0["uuid"] as UUID } == kept + after)
            #expect(rows.map { $0["start_us"] as Int64 } == [0, 5, 6, 7].map { 1_700_000_000_000_000 + Int64($0) * 60_000_000 })
        }
    }

    /// The columns bound once per write (source, version, change) hold for every row, and the
    /// per-row ones change with each row, across writes of different sources and versions.
    @Test func sharedColumnsHoldForEveryRowAndChangeBetweenWrites() async throws {
        try await Self.withStore { database in
            _ = try await database.samples.insert((0 ..< 4).map { Self.sample(minute: $0, value: $0) }, source: Self.source("a", version: "1"))
            _ = try await database.samples.insert((4 ..< 7).map { Self.sample(Self.mindful, minute: $0, value: 0, sync: ("s\($0)", 1)) },
                                                  source: Self.source("b", version: nil))
            let rows = try Self.rows(database)
            #expect(rows.map { $0["source"] as String } == Array(repeating: "org.example.a", count: 4) + Array(repeating: "org.example.b", count: 3))
            #expect(rows.map { $0["source_version"] as String? } == Array(repeating: "1", count: 4) + Array(repeating: nil, count: 3))
            #expect(rows.map { $0["change_seq"] as Int64 } == [1, 1, 1, 1, 2, 2, 2])
            #expect(rows.map { $0["category"] as Int64 } == [0, 1, 2, 3, 0, 0, 0])
            #expect(rows.map { $0["sync_identifier"] as String? } == [nil, nil, nil, nil, "s4", "s5", "s6"])
            #expect(rows.map { $0["type"] as String } == Array(repeating: Self.sleep, count: 4) + Array(repeating: Self.mindful, count: 3))
        }
    }
}
