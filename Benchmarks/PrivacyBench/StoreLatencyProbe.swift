// privacy-bench: does a query for a type the app may not read take longer when the store holds
// more samples the app cannot see? (DESIGN.md §7.3: "no measurable delay depends on hidden data")
//
// Two encrypted stores with the same 200 samples of the probing app; one also holds N samples
// of the same type from another source. The probing app's query runs with the scope the broker
// gives it without read permission (.ownSamples), alternating between the stores, and the
// medians are compared. Run it in release mode:
//
//   swift run -c release privacy-bench [hidden-samples (default 1000000)] [queries (default 2000)]
import Foundation
import HealthModel
import HealthStore

let arguments = CommandLine.arguments.dropFirst()
let hiddenCount = arguments.first.flatMap(Int.init) ?? 1_000_000
let queries = arguments.dropFirst().first.flatMap(Int.init) ?? 2000
let type = HKQuantityTypeIdentifier.heartRate.rawValue
let probe = SourceRecord(bundleIdentifier: "org.bench.probe", name: "Probe", version: "1")
let other = SourceRecord(bundleIdentifier: "org.bench.other", name: "Other", version: "1")
let start = Date(timeIntervalSince1970: 1_700_000_000)

func samples(count: Int, offset: Int) -> [SampleRecord] {
    (0..<count).map { index in
        let time = start.addingTimeInterval(Double(offset + index) * 30)
        return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: time, endDate: time, value: .quantity(1.2, unit: "count/s"))
    }
}

func makeStore(hidden: Int) async throws -> (EncryptedDatabase, HealthDatabase, String) {
    let directory = NSTemporaryDirectory() + "privacy-bench-" + UUID().uuidString.prefix(8)
    let store = try EncryptedDatabase.open(directory: directory)
    let database = try HealthDatabase(writer: store.writer)
    // The probing app's own samples are spread over the same time range as the hidden ones.
    _ = try await database.samples.insert(samples(count: 200, offset: 0).enumerated().map { index, record in
        var record = record
        record.startDate = start.addingTimeInterval(Double(index) * Double(max(hidden, 200)) / 200 * 30)
        record.endDate = record.startDate
        return record
    }, source: probe)
    var inserted = 0
    while inserted < hidden {
        let batch = min(10_000, hidden - inserted)
        _ = try await database.samples.insert(samples(count: batch, offset: inserted), source: other)
        inserted += batch
        if inserted % 200_000 == 0 { print("  \(inserted) hidden samples stored") }
    }
    return (store, database, directory)
}

func timeQuery(_ database: HealthDatabase) throws -> (Double, Int) {
    let spec = SampleQuerySpec(typeIdentifier: type,
                               predicate: .dateRange(start: start, end: start.addingTimeInterval(400 * 86_400), strictStart: false, strictEnd: false),
                               sort: [SampleSort(.startDate, ascending: true)])
    var rows = 0
    let began = DispatchTime.now().uptimeNanoseconds
    try database.samples.query(spec, scope: .ownSamples(appID: probe.bundleIdentifier)) { rows += $0.count }
    return (Double(DispatchTime.now().uptimeNanoseconds - began) / 1_000, rows)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

print("privacy-bench: \(hiddenCount) hidden samples, \(queries) queries per store")
let (emptyStore, empty, emptyDirectory) = try await makeStore(hidden: 0)
let (fullStore, full, fullDirectory) = try await makeStore(hidden: hiddenCount)

var emptyTimes: [Double] = [], fullTimes: [Double] = []
for _ in 0..<50 { _ = try timeQuery(empty); _ = try timeQuery(full) }  // warm both page caches
for _ in 0..<queries {
    let (a, rowsA) = try timeQuery(empty)
    let (b, rowsB) = try timeQuery(full)
    precondition(rowsA == 200 && rowsB == 200, "the probing app must see exactly its own 200 samples")
    emptyTimes.append(a)
    fullTimes.append(b)
}
let m0 = median(emptyTimes), m1 = median(fullTimes)
print(String(format: "median latency, 0 hidden samples:        %8.1f µs", m0))
print(String(format: "median latency, %7d hidden samples:  %8.1f µs", hiddenCount, m1))
print(String(format: "difference: %+.1f%% (target: within ±10%%)", (m1 - m0) / m0 * 100))
try emptyStore.close()
try fullStore.close()
try? FileManager.default.removeItem(atPath: emptyDirectory)
try? FileManager.default.removeItem(atPath: fullDirectory)
