import Foundation
import HealthModel
import HealthStore

/// A fixed number of writes through the store's save paths, for instruction counts that do not
/// depend on the machine's load (`valgrind --tool=callgrind`, run at two counts and differenced,
/// Benchmarks/README.md "Session 20: storage bound"):
///
/// - `saves N`: N durable one-sample saves of an app, each with its access-log entry, committed by
///   the calling thread as a connection's reader commits a lone save (`insertBlocking`);
/// - `batches N`: N saves of 1,000 samples of an app, committed the same way;
/// - `imports N`: N import batches of 1,000 records under an `@import/…` source (`importBatch`).
///
/// Saves and batches run on the main thread with no task: valgrind 3.19 crashes creating the
/// cooperative pool's threads, so only `imports` (async in the store) needs them.
struct SaveCostWorkload {
    enum Kind: String {
        case saves, batches, imports
    }

    let kind: Kind
    let count: Int

    func run(in directory: String) async throws {
        guard kind == .imports else { return try runBlocking(in: directory) }
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        let database = try HealthDatabase(writer: store.writer)
        let app = SourceRecord(bundleIdentifier: "org.bench.app", name: "App", version: "1")
        let imported = SourceRecord(bundleIdentifier: "@import/Apple Health/Watch", name: "Watch")
        for round in 0..<count {
            _ = try await database.samples.importBatch((0..<1_000).map { Self.sample(round * 1_000 + $0) }, source: imported)
        }
        _ = app
    }

    /// `saves` and `batches`, on the calling thread.
    func runBlocking(in directory: String) throws {
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        let database = try HealthDatabase(writer: store.writer)
        let app = SourceRecord(bundleIdentifier: "org.bench.app", name: "App", version: "1")
        for round in 0..<count {
            switch kind {
            case .saves:
                let entry = AccessLogEntryDraft(actor: app.bundleIdentifier, appID: app.bundleIdentifier, action: .write,
                                                types: [HKQuantityTypeIdentifier.stepCount.rawValue])
                _ = try database.samples.insertBlocking([Self.sample(round)], source: app, accessLog: entry)
            case .batches:
                _ = try database.samples.insertBlocking((0..<1_000).map { Self.sample(round * 1_000 + $0) }, source: app)
            case .imports:
                break
            }
        }
    }

    static func sample(_ index: Int) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, startDate: start,
                            endDate: start.addingTimeInterval(60), value: .quantity(Double(index % 300), unit: "count"))
    }
}
