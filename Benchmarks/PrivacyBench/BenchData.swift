import Foundation
import HealthModel
import HealthStore

/// The samples both modes store: the probing app's own and another source's hidden ones, all
/// in late 2023 (so older than any 30-day window grant).
enum BenchData {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let activeEnergy = HKQuantityTypeIdentifier.activeEnergyBurned.rawValue
    static let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
    static let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
    static let bloodPressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue
    static let workout = HKWorkoutTypeIdentifier
    static let activitySummary = HKObjectType.activitySummaryType().identifier
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let ownCount = 200
    static let other = SourceRecord(bundleIdentifier: "org.bench.other", name: "Other", version: "1")

    static func samples(_ type: String, count: Int, offset: Int) -> [SampleRecord] {
        (0..<count).map { index in
            let time = start.addingTimeInterval(Double(offset + index) * 30)
            return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: time, endDate: time, value: value(of: type))
        }
    }

    static func value(of type: String) -> SampleRecord.Value {
        switch type {
        case steps: .quantity(12, unit: "count")
        case activeEnergy: .quantity(0.5, unit: "kcal")
        case systolic, diastolic: .quantity(type == systolic ? 120 : 80, unit: "mmHg")
        default: .quantity(1.2, unit: "count/s")
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

    /// A blood-pressure correlation at `time` holding a systolic and a diastolic sample.
    static func bloodPressureReading(at time: Date) -> SampleRecord {
        func half(_ type: String) -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: time, endDate: time, value: value(of: type))
        }
        return SampleRecord(uuid: UUID(), typeIdentifier: bloodPressure, startDate: time, endDate: time,
                            value: .correlation([half(systolic), half(diastolic)]))
    }

    /// `count` correlations, every `spacing` seconds from `start`.
    static func bloodPressureReadings(count: Int, spacing: Double) -> [SampleRecord] {
        (0..<count).map { bloodPressureReading(at: start.addingTimeInterval(Double($0) * spacing)) }
    }

    /// A one-hour run starting at `start`.
    static func workoutRecord() -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: workout, startDate: start, endDate: start.addingTimeInterval(3_600),
                     value: .workout(WorkoutValue(activityType: HKWorkoutActivityType.running.rawValue, duration: 3_600)))
    }

    /// Stores `count` hidden samples of `type` from `other`, in batches; their UUIDs.
    @discardableResult
    static func insertHidden(_ type: String, count: Int, offset: Int = 0, into database: HealthDatabase) async throws -> [UUID] {
        var inserted = 0
        var uuids: [UUID] = []
        uuids.reserveCapacity(count)
        while inserted < count {
            let batch = min(10_000, count - inserted)
            uuids += try await database.samples.insert(samples(type, count: batch, offset: offset + inserted), source: other)
            inserted += batch
            if inserted % 200_000 == 0 { print("  \(inserted) hidden \(type.dropFirst(26)) samples stored") }
        }
        return uuids
    }

    /// The whole range, oldest first.
    static let everything = SamplePredicate.dateRange(start: start, end: start.addingTimeInterval(400 * 86_400),
                                                      strictStart: false, strictEnd: false)

    /// The spec every timed query runs: the whole range, oldest first.
    static func spec(_ type: String) -> SampleQuerySpec {
        SampleQuerySpec(typeIdentifier: type, predicate: everything, sort: [SampleSort(.startDate, ascending: true)])
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
