import Foundation
import HealthModel
import HealthStore

/// The samples both modes store: the probing app's own and another source's hidden ones, all
/// in late 2023 (so older than any 30-day window grant).
enum BenchData {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let ownCount = 200
    static let other = SourceRecord(bundleIdentifier: "org.bench.other", name: "Other", version: "1")

    static func samples(_ type: String, count: Int, offset: Int) -> [SampleRecord] {
        (0..<count).map { index in
            let time = start.addingTimeInterval(Double(offset + index) * 30)
            let value: SampleRecord.Value = type == steps ? .quantity(12, unit: "count") : .quantity(1.2, unit: "count/s")
            return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: time, endDate: time, value: value)
        }
    }

    /// The probing app's samples, spread over the same time range as `hidden` hidden ones.
    static func own(_ type: String, spreadOver hidden: Int) -> [SampleRecord] {
        samples(type, count: ownCount, offset: 0).enumerated().map { index, record in
            var record = record
            record.startDate = start.addingTimeInterval(Double(index) * Double(max(hidden, ownCount)) / Double(ownCount) * 30)
            record.endDate = record.startDate
            return record
        }
    }

    /// Stores `count` hidden samples of `type` from `other`, in batches.
    static func insertHidden(_ type: String, count: Int, into database: HealthDatabase) async throws {
        var inserted = 0
        while inserted < count {
            let batch = min(10_000, count - inserted)
            _ = try await database.samples.insert(samples(type, count: batch, offset: inserted), source: other)
            inserted += batch
            if inserted % 200_000 == 0 { print("  \(inserted) hidden \(type.dropFirst(26)) samples stored") }
        }
    }

    /// The spec every timed query runs: the whole range, oldest first.
    static func spec(_ type: String) -> SampleQuerySpec {
        SampleQuerySpec(typeIdentifier: type,
                        predicate: .dateRange(start: start, end: start.addingTimeInterval(400 * 86_400), strictStart: false, strictEnd: false),
                        sort: [SampleSort(.startDate, ascending: true)])
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
