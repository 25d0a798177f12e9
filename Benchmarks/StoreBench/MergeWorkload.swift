import Foundation
import HealthModel
import HealthStore

/// The pending-journal merge (ARCHITECTURE.md, "Locked store"): a journal of `entries` sealed
/// saves of one step-count sample each (what an app saving while locked leaves), merged into an
/// encrypted store with `batchSize` entries per transaction. The entries are sealed and opened
/// for real; decoding is a table lookup (the broker's JSON decoding is not part of the store).
struct MergeWorkload {
    let entries: Int

    /// Entries merged per second, from the start of the merge to its end (file removed).
    func run(batchSize: Int, in directory: String) throws -> Double {
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        let database = try HealthDatabase(writer: store.writer)
        let source = SourceRecord(bundleIdentifier: "org.bench.merge", name: "Merge bench", version: "1")
        let effects: [PendingEffect] = (0..<entries).map { index in
            let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
            let record = SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue,
                                      startDate: start, endDate: start.addingTimeInterval(60),
                                      value: .quantity(Double(index % 200), unit: "count"))
            return .save(records: [record], source: source, uuids: [UUIDv7.make(startingAt: start)])
        }
        let journal = try PendingJournalMerge.begin(database, directory: directory)
        for index in 0..<entries {
            try journal.append(Array(withUnsafeBytes(of: UInt32(index).bigEndian) { Array($0) }))
        }
        journal.close()
        let started = ContinuousClock.now
        let report = try PendingJournalMerge.merge(database, directory: directory, batchSize: batchSize) { plaintext in
            effects[Int(plaintext.reduce(0) { $0 << 8 | UInt32($1) })]
        }
        let elapsed = ContinuousClock.now - started
        guard report.merged == entries else {
            throw MergeBenchFailed(reason: "merged \(report.merged) of \(entries)")
        }
        return Double(entries) / (Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
    }
}

struct MergeBenchFailed: Error {
    let reason: String
}
