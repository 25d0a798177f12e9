import Foundation
import HealthModel

/// The samples the two kinds of app save. Dates are fixed and interleaved, so the hidden
/// samples sit before, between and after the probing app's own ones; all lie years before any
/// test run, hence outside a 30-day window grant.
enum ProbeData {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let base = Date(timeIntervalSince1970: 1_700_000_000)

    static func time(_ minutes: Int) -> Date { base.addingTimeInterval(Double(minutes) * 60) }

    static func heartRate(_ minute: Int, _ beatsPerSecond: Double, sync: String? = nil) -> SampleRecord {
        var metadata: [String: MetadataValue] = [:]
        if let sync {
            metadata[HKMetadataKeySyncIdentifier] = .string(sync)
            metadata[HKMetadataKeySyncVersion] = .number(1)
        }
        return SampleRecord(uuid: UUID(), typeIdentifier: heartRate, startDate: time(minute), endDate: time(minute + 1),
                            value: .quantity(beatsPerSecond, unit: "count/s"), metadata: metadata)
    }

    static func steps(_ minute: Int, _ count: Double) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: time(minute), endDate: time(minute + 10),
                     value: .quantity(count, unit: "count"))
    }

    /// Saved by the hidden app before the probing apps save theirs, and after.
    static let hiddenEarly = [heartRate(0, 1.0, sync: "hidden-sync-1"), heartRate(15, 1.1), heartRate(35, 1.2), steps(0, 500)]
    static let hiddenLate = [heartRate(25, 1.3, sync: "hidden-sync-2"), heartRate(60, 1.4), steps(30, 700)]
    static let hiddenSyncIdentifiers = ["hidden-sync-1", "hidden-sync-2"]

    /// Saved by every probing app, in two saves.
    static let ownFirst = [heartRate(10, 1.5), heartRate(30, 1.6), steps(10, 100)]
    static let ownSecond = [heartRate(20, 1.7), heartRate(50, 1.8)]
}
