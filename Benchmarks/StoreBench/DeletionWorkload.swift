import Foundation
import GRDB
import HealthModel
import HealthStore

/// What deleting costs on the encrypted store, with the writer's `secure_delete` as healthd runs
/// it (on: SQLite zeroes freed cells and pages) and turned off on the same build, alternating: a
/// store of `samples` step counts (each with a 200-byte metadata note, the size of a typical
/// app's), then `singles` deletions of one sample each (one durable transaction each, as an
/// app's `delete(_:)`), then the rest in one `deleteMatching` (chunked, as a manager's or an
/// app's delete-by-predicate).
///
///   store-bench delete [samples] [rounds]
struct DeletionWorkload {
    let samples: Int
    let singles = 400

    struct Figures {
        /// Median time of one single-sample deletion, in ms.
        var singleMilliseconds: Double
        /// Samples per second deleted by `deleteMatching`.
        var bulkPerSecond: Double
    }

    static let source = SourceRecord(bundleIdentifier: "org.bench.delete", name: "Delete bench", version: "1")
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue

    func run(secureDelete: Bool, in directory: String) async throws -> Figures {
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        if !secureDelete {
            try await store.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA secure_delete = OFF") }
        }
        let database = try HealthDatabase(writer: store.writer, sideReader: store.sideReader)
        let note = String(repeating: "n", count: 200)
        var uuids: [UUID] = []
        for first in stride(from: 0, to: samples, by: 1_000) {
            let records = (first..<min(samples, first + 1_000)).map { index in
                let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
                return SampleRecord(uuid: UUID(), typeIdentifier: Self.steps, startDate: start, endDate: start.addingTimeInterval(60),
                                    value: .quantity(Double(index % 200), unit: "count"), metadata: ["org.bench.note": .string(note)])
            }
            uuids += try await database.samples.insert(records, source: Self.source)
        }
        var singles: [Double] = []
        // Spread over the store, so each deletion frees cells on another page.
        for uuid in uuids.enumerated().filter({ $0.offset % (samples / self.singles) == 0 }).prefix(self.singles).map(\.element) {
            let started = ContinuousClock.now
            _ = try await database.samples.delete([ObjectReference(typeIdentifier: Self.steps, uuid: uuid)], appID: Self.source.bundleIdentifier)
            singles.append(Self.seconds(ContinuousClock.now - started) * 1_000)
        }
        let started = ContinuousClock.now
        let deleted = try await database.samples.deleteMatching(typeIdentifier: Self.steps, predicate: nil, appID: Self.source.bundleIdentifier,
                                                                 workouts: .allSources)
        let bulk = Double(deleted) / Self.seconds(ContinuousClock.now - started)
        singles.sort()
        return Figures(singleMilliseconds: singles[singles.count / 2], bulkPerSecond: bulk)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
