import Foundation
import GRDB
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

/// The import's correlation rules (`ImportedCorrelations`) applied to whole batches: a
/// correlation the source holds is not stored again, a top-level copy of a correlation's sample
/// is stored once — skipped when the correlation came first, deleted when it comes after — and
/// the lookups cost one statement per type and batch, whatever the batch's size (they were one
/// query per record: a year of blood pressure is thousands).
@Suite(.timeLimit(.minutes(10))) struct ImportedCorrelationsTests {
    static let source = SourceRecord(bundleIdentifier: "@import/Apple Health/Withings", name: "Withings (Apple Health)", version: "1")
    static let systolic = CorrelationRepositoryTests.systolic
    static let diastolic = CorrelationRepositoryTests.diastolic

    /// Reading `minute` as Apple's export has it: the correlation with its import identity.
    static func reading(minute: Int, high: Double = 120, low: Double = 80) -> SampleRecord {
        var reading = CorrelationRepositoryTests.reading(high, low, minute: minute)
        reading.metadata[SampleRecord.importIdentityKey] = .string("reading-\(minute)-\(high)-\(low)")
        return reading
    }

    /// The reading's samples as the export lists them again at the top level (each with the sync
    /// identity the import derives for a record).
    static func topLevelCopies(of reading: SampleRecord) -> [SampleRecord] {
        guard case let .correlation(members) = reading.value else { return [] }
        return members.map { member in
            var copy = member
            copy.metadata = [HKMetadataKeySyncIdentifier: .string("copy-\(member.typeIdentifier)-\(member.startDate.timeIntervalSince1970)-\(member.value)"),
                             HKMetadataKeySyncVersion: .number(1)]
            return copy
        }
    }

    /// Top-level rows (not a correlation's sample) and correlation rows of the source.
    static func counts(_ database: HealthDatabase) async throws -> (topLevel: Int, correlations: Int, members: Int) {
        try await database.writer.read { db in
            let topLevel = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM objects o WHERE o.quantity IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM correlation_members m WHERE m.member_id = o.id)
                """) ?? -1
            let correlations = try Int.fetchOne(db, sql: "SELECT count(DISTINCT correlation_id) FROM correlation_members") ?? -1
            let members = try Int.fetchOne(db, sql: "SELECT count(*) FROM correlation_members") ?? -1
            return (topLevel, correlations, members)
        }
    }

    @Test(arguments: [1, 40])
    func copiesBeforeOrAfterTheirCorrelationAreStoredOnce(readings: Int) async throws {
        try await CorrelationRepositoryTests.withStore { database in
            let all = (0..<readings).map { Self.reading(minute: $0) }
            // The copies of the first half arrive before their readings, those of the second half after.
            let half = readings / 2
            let earlyCopies = all.prefix(half).flatMap(Self.topLevelCopies)
            let lateCopies = all.dropFirst(half).flatMap(Self.topLevelCopies)
            if !earlyCopies.isEmpty { _ = try await database.samples.importBatch(earlyCopies, source: Self.source) }
            let stored = try await database.samples.importBatch(all, source: Self.source)
            #expect(stored == .init(added: readings, unchanged: 0, routesAdded: 0, routesUnchanged: 0))
            let late = try await database.samples.importBatch(lateCopies, source: Self.source)
            #expect(late.added == 0 && late.unchanged == lateCopies.count, "\(late)")
            let counts = try await Self.counts(database)
            #expect(counts.topLevel == 0, "copies deleted or skipped: \(counts)")
            #expect(counts.correlations == readings && counts.members == 2 * readings, "\(counts)")

            let again = try await database.samples.importBatch(all + earlyCopies + lateCopies, source: Self.source)
            #expect(again.added == 0 && again.unchanged == readings * 3, "\(again)")
        }
    }

    /// One dimension changed: a top-level sample whose value differs from the reading's (by one
    /// ulp) is not its copy — it is stored, and storing the reading leaves it.
    @Test func aTopLevelSampleOfAnotherValueIsNoCopy() async throws {
        try await CorrelationRepositoryTests.withStore { database in
            let reading = Self.reading(minute: 3, high: 120, low: 80)
            let other = Self.topLevelCopies(of: Self.reading(minute: 3, high: 120.nextUp, low: 80))
            _ = try await database.samples.importBatch(other, source: Self.source)
            _ = try await database.samples.importBatch([reading], source: Self.source)
            let after = try await database.samples.importBatch(other, source: Self.source)
            #expect(after.unchanged == 2)
            let counts = try await Self.counts(database)
            // The diastolic copy equals the reading's and goes; the systolic one, a ulp apart, stays.
            #expect(counts.topLevel == 1 && counts.correlations == 1, "\(counts)")
            let kept = try await database.writer.read { db in
                try Double.fetchOne(db, sql: """
                    SELECT quantity FROM objects o WHERE NOT EXISTS (SELECT 1 FROM correlation_members m WHERE m.member_id = o.id)
                      AND o.quantity IS NOT NULL
                    """)
            }
            #expect(kept == 120.nextUp)
        }
    }

    /// The lookups of a batch are a fixed number of statements: 400 readings, and then their
    /// top-level copies, run as many statements over `objects` as 4 do — the per-record sync
    /// identifier lookup (an index search through one prepared statement) and inserts aside.
    @Test func aBatchsLookupsDoNotGrowWithItsSize() async throws {
        func lookups(readings: Int) async throws -> Int {
            var configuration = Configuration()
            configuration.prepareDatabase { db in
                db.add(function: SampleSQL.uuidBlob)
                db.add(function: SampleSQL.quantityConversion)
            }
            let writer = try DatabaseQueue(configuration: configuration)
            let database = try HealthDatabase(writer: writer)
            let all = (0..<readings).map { Self.reading(minute: $0) }
            let executed = Mutex(0)
            writer.inDatabase { db in
                db.trace { event in
                    guard case let .statement(statement) = event else { return }
                    let sql = statement.sql.trimmingCharacters(in: .whitespacesAndNewlines)
                    if sql.hasPrefix("SELECT"), sql.contains("objects"), !sql.contains("sync_identifier = ?") {
                        executed.withLock { $0 += 1 }
                    }
                }
            }
            _ = try await database.samples.importBatch(all, source: Self.source)
            let copies = try await database.samples.importBatch(all.flatMap(Self.topLevelCopies), source: Self.source)
            writer.inDatabase { db in db.trace(nil) }
            #expect(copies.unchanged == 2 * readings)
            #expect(try await Self.counts(database).topLevel == 0)
            return executed.withLock { $0 }
        }
        let small = try await lookups(readings: 4)
        let large = try await lookups(readings: 400)
        #expect(small == large, "statements over objects: \(small) for 4 readings, \(large) for 400")
    }
}
