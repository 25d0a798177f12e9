// query-bench: OpenHealthKit's query paths on the encrypted store against the equivalent raw
// SQL on plain SQLite holding the same rows, in one run on one machine. Not a test: it prints
// figures (Benchmarks/README.md explains them).
//
//   swift build -c release --product query-bench && .build/release/query-bench [days (default 365)] [rounds (default 7)]
import Foundation
import GRDB
import HealthModel
import HealthStore

let arguments = CommandLine.arguments.dropFirst()
let days = arguments.first.flatMap(Int.init) ?? 365
let rounds = arguments.dropFirst().first.flatMap(Int.init) ?? 7
let data = BenchData(days: days)
let workloads = Workloads(data: data)

func temporaryDirectory(_ name: String) -> String {
    let path = NSTemporaryDirectory() + "query-bench-\(name)-" + UUID().uuidString.prefix(8)
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

print("query-bench: \(days) days, \(data.sampleCount) samples per store, median of \(rounds) rounds")
let encryptedDirectory = temporaryDirectory("encrypted"), plainDirectory = temporaryDirectory("plain")
defer {
    try? FileManager.default.removeItem(atPath: encryptedDirectory)
    try? FileManager.default.removeItem(atPath: plainDirectory)
}
let encryptedStore = try EncryptedDatabase.open(directory: encryptedDirectory)
let encrypted = try HealthDatabase(writer: encryptedStore.writer)
let plainPool = try DatabasePool(path: plainDirectory + "/plain.sqlite")
let plain = try HealthDatabase(writer: plainPool)  // same schema and indexes, no cipher

// Both stores load at once (10,000 samples per save through SampleRepository.insert).
let began = DispatchTime.now().uptimeNanoseconds
async let encryptedLoaded: Void = data.load(into: encrypted)
async let plainLoaded: Void = data.load(into: plain)
_ = try await (encryptedLoaded, plainLoaded)
print(String(format: "loaded both stores in %.1f s", seconds(since: began)))

/// Median wall time of `body` over the rounds, after one warm-up run.
func median(_ body: () throws -> Double) rethrows -> (seconds: Double, checksum: Double) {
    var times: [Double] = []
    var checksum = try body()
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        checksum = try body()
        times.append(seconds(since: start))
    }
    return (times.sorted()[times.count / 2], checksum)
}

func report(_ name: String, ours: (seconds: Double, checksum: Double), raw: (seconds: Double, checksum: Double)) {
    print(String(format: "%@\n  OpenHealthKit (encrypted): %9.1f ms   raw SQL (plain): %9.1f ms   ratio %.2fx (target ≤ 2x)",
                 name, ours.seconds * 1000, raw.seconds * 1000, ours.seconds / raw.seconds))
}

let dailyOurs = try median { try workloads.dailySumsThroughOpenHealthKit(encrypted) }
let dailyRaw = try median { try plainPool.read { try workloads.dailySumsRawSQL($0) } }
report("daily merged step sums, \(days) days (collection, Europe/Berlin)", ours: dailyOurs, raw: dailyRaw)
let rowsRaw = try median { try plainPool.read { try workloads.stepRowsRawSQL($0) } }
print(String(format: "  raw SQL only reading the same rows in the same order (plain): %.1f ms, ratio %.2fx",
             rowsRaw.seconds * 1000, dailyOurs.seconds / rowsRaw.seconds))
let dailyOursPlain = try median { try workloads.dailySumsThroughOpenHealthKit(plain) }
print(String(format: "  OpenHealthKit's path on the plain store: %.1f ms (the cipher's share is the difference)",
             dailyOursPlain.seconds * 1000))
print(String(format: "  steps counted: merged %.0f; raw SQL, unmerged, %.0f", dailyOurs.checksum, dailyRaw.checksum))

let queryOurs = try median { try workloads.sampleQueryThroughOpenHealthKit(encrypted) }
let queryRaw = try median { try plainPool.read { try workloads.sampleQueryRawSQL($0) } }
report("10,000-sample heart-rate query, sorted by start", ours: queryOurs, raw: queryRaw)
let queryStoreOnly = try median { try workloads.sampleQueryStoreOnly(encrypted) }
print(String(format: "  of which the store query (rows to SampleRecords): %.1f ms; the rest is wire encoding",
             queryStoreOnly.seconds * 1000))
let queryOursPlain = try median { try workloads.sampleQueryThroughOpenHealthKit(plain) }
print(String(format: "  OpenHealthKit's path on the plain store: %.1f ms (the cipher's share is the difference)",
             queryOursPlain.seconds * 1000))

let catchUpCursor = try encryptedStore.writer.read { try workloads.catchUpCursor($0) }
let plainCatchUpCursor = try plainPool.read { try workloads.catchUpCursor($0) }
precondition(catchUpCursor == plainCatchUpCursor, "the two stores' change feeds differ")
let catchUpAnchor = try encrypted.changeFeed.anchors.seal(catchUpCursor, appID: Workloads.catchUpApp, typeIdentifier: BenchData.heartRate)
let catchUpOurs = try median { try workloads.catchUpThroughOpenHealthKit(encrypted, anchor: catchUpAnchor) }
let catchUpRaw = try median { try plainPool.read { try workloads.catchUpRawSQL($0, after: catchUpCursor) } }
report("anchored catch-up, \(workloads.catchUpCount) heart-rate changes after an anchor", ours: catchUpOurs, raw: catchUpRaw)
let plainCatchUpAnchor = try plain.changeFeed.anchors.seal(catchUpCursor, appID: Workloads.catchUpApp, typeIdentifier: BenchData.heartRate)
let catchUpOursPlain = try median { try workloads.catchUpThroughOpenHealthKit(plain, anchor: plainCatchUpAnchor) }
print(String(format: "  OpenHealthKit's path on the plain store: %.1f ms (the cipher's share is the difference)",
             catchUpOursPlain.seconds * 1000))

try encryptedStore.close()
try plainPool.close()
