// store-bench: insert and range-scan throughput of the encrypted store against plain
// SQLite with the same schema, pragmas (WAL, synchronous=FULL, 4096-byte pages) and
// workload, in one run on one machine.
//
//   swift run -c release store-bench [rows] [rounds] [writers]
//   swift run -c release store-bench merge [entries…]   (pending-journal merge, MergeWorkload)
//   swift run -c release store-bench storage [days] [--bare]  (a watch app's count against the file, StorageWorkload)
//   store-bench saves|batches|imports N                  (a fixed count of writes, for callgrind: SaveCostWorkload)
import Foundation
import GRDB
import HealthModel
import HealthStore

let arguments = CommandLine.arguments
if arguments.count > 1, arguments[1] == "merge" {
    let sizes = arguments.dropFirst(2).compactMap { Int($0) }
    print("pending-journal merge, one step-count save per entry, best of 3")
    print("entries   one transaction per entry (entries/s)   batches of \(PendingJournalMerge.defaultBatchSize) (entries/s)   speed-up")
    for entries in sizes.isEmpty ? [600, 10_000] : sizes {
        let workload = MergeWorkload(entries: entries)
        var single: [Double] = [], batched: [Double] = []
        for _ in 0..<3 {
            for (batchSize, into) in [(1, 0), (PendingJournalMerge.defaultBatchSize, 1)] {
                let directory = temporaryDirectory()
                defer { try? FileManager.default.removeItem(atPath: directory) }
                let rate = try workload.run(batchSize: batchSize, in: directory)
                if into == 0 { single.append(rate) } else { batched.append(rate) }
            }
        }
        let s = single.max() ?? 0, b = batched.max() ?? 0
        print(String(format: "%7d   %37.0f   %29.0f   %.1fx", entries, s, b, b / s))
    }
    exit(0)
}
if arguments.count > 2, let kind = SaveCostWorkload.Kind(rawValue: arguments[1]), let count = Int(arguments[2]) {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let workload = SaveCostWorkload(kind: kind, count: count)
    if kind == .imports { try await workload.run(in: directory) } else { try workload.runBlocking(in: directory) }
    print("\(count) \(kind.rawValue) done")
    exit(0)
}
if arguments.count > 1, arguments[1] == "storage" {
    let days = arguments.count > 2 ? Int(arguments[2]) ?? 30 : 30
    print("a watch app's storage: \(days) days of per-minute heart rate, steps and active energy, hourly saves")
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let figures = try await StorageWorkload(days: days, bare: arguments.contains("--bare")).run(in: directory)
    print("samples \(figures.samples)   counted \(figures.counted) bytes (\(figures.counted / Int64(max(1, figures.samples))) a sample)   "
          + "database grew \(figures.fileGrowth) bytes (\(figures.fileGrowth / Int64(max(1, figures.samples))) a sample)   "
          + "counted/file \(String(format: "%.2f", Double(figures.counted) / Double(max(1, figures.fileGrowth))))   "
          + "a year: \(ByteSize.text(figures.counted * 365 / Int64(max(1, days)))) counted")
    exit(0)
}
if arguments.count > 1, arguments[1] == "delete" {
    let samples = arguments.count > 2 ? Int(arguments[2]) ?? 20_000 : 20_000
    let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3
    let workload = DeletionWorkload(samples: samples)
    print("deletions on the encrypted store, \(samples) samples, \(workload.singles) single deletions then the rest by predicate; \(rounds) rounds, alternating")
    print("secure_delete   single deletion, median (ms)   deleteMatching (samples/s)")
    var figures: [Bool: [DeletionWorkload.Figures]] = [:]
    for round in 0..<rounds {
        for secure in round % 2 == 0 ? [true, false] : [false, true] {
            let directory = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let result = try await workload.run(secureDelete: secure, in: directory)
            figures[secure, default: []].append(result)
            print((secure ? "on" : "off").padding(toLength: 13, withPad: " ", startingAt: 0)
                  + String(format: "   %27.3f   %24.0f", result.singleMilliseconds, result.bulkPerSecond))
        }
    }
    for secure in [true, false] {
        let runs = figures[secure] ?? []
        let single = runs.map(\.singleMilliseconds).sorted(), bulk = runs.map(\.bulkPerSecond).sorted()
        print(("median " + (secure ? "on" : "off")).padding(toLength: 13, withPad: " ", startingAt: 0)
              + String(format: "   %27.3f   %24.0f", single[single.count / 2], bulk[bulk.count / 2]))
    }
    exit(0)
}
let rows = arguments.count > 1 ? Int(arguments[1]) ?? 200_000 : 200_000
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3
let workload = ObjectsWorkload(rows: rows, batchSize: 1000, scans: 200)

func temporaryDirectory() -> String {
    var template = Array((NSTemporaryDirectory().trimmingSuffix("/") + "/store-bench-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    return String(cString: made)
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var copy = self
        while copy.hasSuffix(suffix) { copy.removeLast(suffix.count) }
        return copy
    }
}

func runPlain() throws -> ObjectsWorkload.Figures {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var configuration = Configuration()
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = 4096") }
    let pool = try DatabasePool(path: directory + "/plain.sqlite", configuration: configuration)
    try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
    defer { try? pool.close() }
    return try workload.run(on: pool)
}

func runEncrypted() throws -> ObjectsWorkload.Figures {
    let directory = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try EncryptedDatabase.open(directory: directory)
    defer { try? store.close() }
    return try workload.run(on: store.writer)
}

/// Best of `rounds`, alternating the two so machine noise hits both alike.
var plain: [ObjectsWorkload.Figures] = []
var encrypted: [ObjectsWorkload.Figures] = []
for _ in 0..<rounds {
    plain.append(try runPlain())
    encrypted.append(try runEncrypted())
}
func best(_ figures: [ObjectsWorkload.Figures]) -> ObjectsWorkload.Figures {
    .init(insertsPerSecond: figures.map(\.insertsPerSecond).max()!,
          scannedRowsPerSecond: figures.map(\.scannedRowsPerSecond).max()!)
}
let p = best(plain), e = best(encrypted)
func format(_ value: Double) -> String { String(format: "%12.0f", value) }
print("rows: \(rows), batch: \(workload.batchSize) per transaction, range scans: \(workload.scans), best of \(rounds)")
print("                         plain SQLite   encrypted store   plain/encrypted")
print("inserts/s              \(format(p.insertsPerSecond))      \(format(e.insertsPerSecond))      \(String(format: "%.2fx", p.insertsPerSecond / e.insertsPerSecond))")
print("range-scan rows/s      \(format(p.scannedRowsPerSecond))      \(format(e.scannedRowsPerSecond))      \(String(format: "%.2fx", p.scannedRowsPerSecond / e.scannedRowsPerSecond))")

// Group commit: single-sample saves from concurrent writers (see GroupCommitWorkload).
let writerCounts = arguments.count > 3 ? [Int(arguments[3]) ?? 16] : [1, 4, 16, 64]
let savesTotal = 1_600
print("")
print("single-sample saves, \(savesTotal) per run, best of \(rounds)")
print("writers   group commit saves/s (commits)   one transaction each saves/s   speed-up")
for writers in writerCounts {
    let workload = GroupCommitWorkload(writers: writers, savesPerWriter: savesTotal / writers)
    var grouped: [GroupCommitWorkload.Figures] = []
    var alone: [GroupCommitWorkload.Figures] = []
    for _ in 0..<rounds {
        let groupedDirectory = temporaryDirectory(), aloneDirectory = temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: groupedDirectory)
            try? FileManager.default.removeItem(atPath: aloneDirectory)
        }
        grouped.append(try await workload.runGrouped(directory: groupedDirectory))
        alone.append(try workload.runOneTransactionEach(directory: aloneDirectory))
    }
    let g = grouped.max { $0.savesPerSecond < $1.savesPerSecond }!
    let a = alone.max { $0.savesPerSecond < $1.savesPerSecond }!
    print(String(format: "%7d   %15.0f (%5d)               %15.0f             %.1fx",
                 writers, g.savesPerSecond, g.commits, a.savesPerSecond, g.savesPerSecond / a.savesPerSecond))
}

// The store's side of batched saves (BatchedSaveWorkload): SampleRepository.insert, 1,000 per batch.
let batchedSaves = BatchedSaveWorkload(batches: max(1, rows / BatchedSaveWorkload.batchSize / 2))
print("")
print("SampleRepository.insert, \(BatchedSaveWorkload.batchSize)-sample batches × \(batchedSaves.batches), encrypted store, best of \(rounds)")
print("samples                          samples/s")
for imported in [false, true] {
    var figures: [Double] = []
    for _ in 0..<rounds {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        figures.append(try await batchedSaves.run(directory: directory, imported: imported))
    }
    let kind = imported ? "imported (device, metadata)" : "plain"
    print(kind.padding(toLength: 30, withPad: " ", startingAt: 0) + String(format: "%12.0f", figures.max() ?? 0))
}
