import Foundation
import HealthModel
import HealthStore

/// A fixed number of writes through the store's save paths, for instruction counts that do not
/// depend on the machine's load (`valgrind --tool=callgrind`, run at two counts and differenced,
/// Benchmarks/README.md "Session 20: storage bound"):
///
/// - `saves N`: N durable one-sample saves of an app, each with its access-log entry, committed by
///   the calling thread as a connection's reader commits a lone save (`insertBlocking`);
/// - `batches N`: N saves of 1,000 samples of an app (`insert`, the ordinary path);
/// - `imports N`: N import batches of 1,000 records under an `@import/…` source (`importBatch`).
struct SaveCostWorkload {
    enum Kind: String {
        case saves, batches, imports
    }

    let kind: Kind
    let count: Int

    func run(in directory: String) async throws {
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        let database = try HealthDatabase(writer: store.writer)
        let app = SourceRecord(bundleIdentifier: "org.bench.app", name: "App", version: "1")
        let imported = SourceRecord(bundleIdentifier: "@import/Apple Health/Watch", name: "Watch")
        let steps = HKQuantityTypeIdentifier.stepCount.rawValue
        func sample(_ index: Int) -> SampleRecord {
            let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
            return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(60),
                                value: .quantity(Double(index % 300), unit: "count"))
        }
        for round in 0..<count {
            switch kind {
            case .saves:
                let entry = AccessLogEntryDraft(actor: app.bundleIdentifier, appID: app.bundleIdentifier, action: .write, types: [steps])
                _ = try database.samples.insertBlocking([sample(round)], source: app, accessLog: entry)
            case .batches:
                _ = try await database.samples.insert((0..<1_000).map { sample(round * 1_000 + $0) }, source: app)
            case .imports:
                _ = try await database.samples.importBatch((0..<1_000).map { sample(round * 1_000 + $0) }, source: imported)
            }
        }
    }
}
