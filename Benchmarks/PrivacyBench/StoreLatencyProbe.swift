import Foundation
import HealthModel
import HealthStore

/// The store path alone: two encrypted stores with the same 200 samples of the probing app,
/// one also holding N samples of the same type from another source; the app's query runs with
/// the scope the broker gives it without read permission (.ownSamples), alternating between
/// the stores, and the medians are compared.
enum StoreLatencyProbe {
    static let probe = SourceRecord(bundleIdentifier: "org.bench.probe", name: "Probe", version: "1")

    static func run(hidden: Int, queries: Int) async throws {
        print("privacy-bench store: \(hidden) hidden samples, \(queries) queries per store")
        let (emptyStore, empty, emptyDirectory) = try await makeStore(hidden: 0)
        let (fullStore, full, fullDirectory) = try await makeStore(hidden: hidden)
        defer {
            try? FileManager.default.removeItem(atPath: emptyDirectory)
            try? FileManager.default.removeItem(atPath: fullDirectory)
        }
        var emptyTimes: [Double] = [], fullTimes: [Double] = []
        for _ in 0..<50 { _ = try timeQuery(empty); _ = try timeQuery(full) }  // warm both page caches
        for _ in 0..<queries {
            let (a, rowsA) = try timeQuery(empty)
            let (b, rowsB) = try timeQuery(full)
            precondition(rowsA == BenchData.ownCount && rowsB == BenchData.ownCount, "the probing app must see exactly its own samples")
            emptyTimes.append(a)
            fullTimes.append(b)
        }
        let m0 = BenchData.median(emptyTimes), m1 = BenchData.median(fullTimes)
        print(String(format: "median latency, 0 hidden samples:        %8.1f µs", m0))
        print(String(format: "median latency, %7d hidden samples:  %8.1f µs", hidden, m1))
        print(String(format: "difference: %+.1f%% (target: within ±10%%)", (m1 - m0) / m0 * 100))
        try emptyStore.close()
        try fullStore.close()
    }

    static func makeStore(hidden: Int) async throws -> (EncryptedDatabase, HealthDatabase, String) {
        let directory = NSTemporaryDirectory() + "privacy-bench-" + UUID().uuidString.prefix(8)
        let store = try EncryptedDatabase.open(directory: directory)
        let database = try HealthDatabase(writer: store.writer)
        _ = try await database.samples.insert(BenchData.own(BenchData.heartRate, spreadOver: hidden), source: probe)
        try await BenchData.insertHidden(BenchData.heartRate, count: hidden, into: database)
        return (store, database, directory)
    }

    static func timeQuery(_ database: HealthDatabase) throws -> (Double, Int) {
        var rows = 0
        let began = DispatchTime.now().uptimeNanoseconds
        try database.samples.query(BenchData.spec(BenchData.heartRate), scope: .ownSamples(appID: probe.bundleIdentifier)) { rows += $0.count }
        return (Double(DispatchTime.now().uptimeNanoseconds - began) / 1_000, rows)
    }
}
