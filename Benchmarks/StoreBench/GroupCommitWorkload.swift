import Foundation
import GRDB
import HealthModel
import HealthStore

/// Single-sample saves from `writers` concurrent writers on the encrypted store, two ways:
///
/// - group commit: each writer awaits `SampleRepository.insert` (what the broker does per app
///   save), so saves that overlap a commit share the next one;
/// - one transaction each: each writer, on its own thread, runs the same statements a one-sample
///   save runs (source upsert, change counter, type upsert, object insert) in its own
///   `writer.write`, so every save pays its own commit and fsync.
struct GroupCommitWorkload {
    let writers: Int
    let savesPerWriter: Int
    static let stepType = "HKQuantityTypeIdentifierStepCount"

    struct Figures {
        var savesPerSecond: Double
        var commits: Int
    }

    func sample(_ index: Int) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index))
        return SampleRecord(uuid: UUID(), typeIdentifier: Self.stepType, startDate: start,
                            endDate: start.addingTimeInterval(1), value: .quantity(Double(index % 500), unit: "count"))
    }

    func source(_ writer: Int) -> SourceRecord {
        SourceRecord(bundleIdentifier: "org.example.writer\(writer)", name: "Writer \(writer)", version: "1")
    }

    func runGrouped(directory: String) async throws -> Figures {
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        let database = try HealthDatabase(writer: store.writer)
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for save in 0..<savesPerWriter {
                        _ = try await database.samples.insert([sample(writer * savesPerWriter + save)], source: source(writer))
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = (ContinuousClock.now - start).seconds
        let statistics = database.samples.commitStatistics
        precondition(statistics.committedSaves == writers * savesPerWriter)
        return Figures(savesPerSecond: Double(writers * savesPerWriter) / seconds, commits: statistics.commits)
    }

    func runOneTransactionEach(directory: String) throws -> Figures {
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        _ = try HealthDatabase(writer: store.writer)  // the same schema
        let writer = store.writer
        let start = ContinuousClock.now
        let done = DispatchGroup()
        for index in 0..<writers {
            done.enter()
            Thread {
                for save in 0..<savesPerWriter {
                    do {
                        try writer.write { db in try insertAlone(sample(index * savesPerWriter + save), source(index), db) }
                    } catch {
                        fatalError("a save failed: \(error)")
                    }
                }
                done.leave()
            }.start()
        }
        done.wait()
        let seconds = (ContinuousClock.now - start).seconds
        return Figures(savesPerSecond: Double(writers * savesPerWriter) / seconds, commits: writers * savesPerWriter)
    }

    /// The statements of SampleRepository's one-sample save (no device, no metadata).
    private func insertAlone(_ record: SampleRecord, _ source: SourceRecord, _ db: Database) throws {
        let sourceID = try Int64.fetchOne(db, sql: """
            INSERT INTO sources (bundle_identifier, name) VALUES (?, ?)
            ON CONFLICT(bundle_identifier) DO UPDATE SET name = excluded.name RETURNING id
            """, arguments: [source.bundleIdentifier, source.name])!
        let change = try Int64.fetchOne(db, sql: "UPDATE counters SET value = value + 1 WHERE name = 'change' RETURNING value")!
        let typeID = try Int64.fetchOne(db, sql: """
            INSERT INTO sample_types (identifier) VALUES (?)
            ON CONFLICT(identifier) DO UPDATE SET identifier = excluded.identifier RETURNING id
            """, arguments: [record.typeIdentifier])!
        guard case let .quantity(value, _) = record.value else { return }
        try db.execute(sql: """
            INSERT INTO objects (uuid, type_id, source_id, source_version, start_us, end_us, quantity, change_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [UUIDv7.make(startingAt: record.startDate), typeID, sourceID, source.version, record.startDate.microsecondsSince1970,
                             record.endDate.microsecondsSince1970, value, change])
    }
}

extension Duration {
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
