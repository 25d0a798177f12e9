import Foundation
import HealthModel
import HealthStore

/// The benchmark's store contents: `days` days of per-minute steps from a watch and per-minute
/// heart rate, plus a phone counting steps in 5-minute samples that overlap the watch's
/// (offset by 150 s), so a merged step sum has real overlaps to resolve. Values follow fixed
/// patterns: every run stores the same data.
struct BenchData {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let watch = SourceRecord(bundleIdentifier: "org.bench.watch", name: "Watch", version: "1")
    static let phone = SourceRecord(bundleIdentifier: "org.bench.phone", name: "Phone", version: "1")

    /// 2026-01-01 00:00 in Europe/Berlin, where the collection's days are cut.
    static let start = Date(timeIntervalSince1970: 1_767_222_000)
    static let zone = TimeZone(identifier: "Europe/Berlin")!

    let days: Int
    var minutes: Int { days * 1_440 }
    var sampleCount: Int { minutes * 2 + minutes / 5 }

    /// Stores everything in `database`, 10,000 samples per save (one transaction each).
    func load(into database: HealthDatabase) async throws {
        try await insert(count: minutes, source: Self.watch, into: database) { minute in
            Self.quantity(Self.steps, from: minute * 60, to: minute * 60 + 60, Double((minute * 37) % 120), "count")
        }
        try await insert(count: minutes, source: Self.watch, into: database) { minute in
            Self.quantity(Self.heartRate, from: minute * 60, to: minute * 60 + 60, Double(55 + (minute * 13) % 70), "count/min")
        }
        try await insert(count: minutes / 5, source: Self.phone, into: database) { index in
            Self.quantity(Self.steps, from: index * 300 + 150, to: index * 300 + 450, Double((index * 53) % 500), "count")
        }
    }

    private func insert(count: Int, source: SourceRecord, into database: HealthDatabase,
                        _ make: (Int) -> SampleRecord) async throws {
        var next = 0
        while next < count {
            let batch = (next..<min(next + 10_000, count)).map(make)
            _ = try await database.samples.insert(batch, source: source)
            next += batch.count
        }
    }

    private static func quantity(_ type: String, from: Int, to: Int, _ value: Double, _ unit: String) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start.addingTimeInterval(Double(from)),
                     endDate: start.addingTimeInterval(Double(to)), value: .quantity(value, unit: unit))
    }
}
