import Foundation
import Testing
@testable import HealthModel

/// A batch remembers the last sample type and unit plan it looked up
/// (`SampleValidator.RecentLookups`, issue 17). What that must not change: each record of a batch
/// is converted and refused exactly as it is alone, however types and units follow each other —
/// a remembered plan is never used for another unit or another type, nor a remembered type for
/// another identifier.
@Suite(.timeLimit(.minutes(10))) struct SampleValidatorRecentLookupsTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func quantity(_ type: HKQuantityTypeIdentifier, _ value: Double, _ unit: String) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type.rawValue, startDate: start, endDate: start.addingTimeInterval(60),
                     value: .quantity(value, unit: unit))
    }

    /// Runs of one (type, unit), then each dimension changing alone from one record to the next:
    /// the unit within a type (kcal → kJ, same dimension, another factor), the type within a unit
    /// (two energy types in kcal, two length types in m), a type whose canonical unit differs
    /// under the same unit string (°C for body and for basal body temperature, an affine unit),
    /// and back.
    static let mixed: [SampleRecord] = [
        quantity(.activeEnergyBurned, 10, "kcal"), quantity(.activeEnergyBurned, 11, "kcal"),
        quantity(.activeEnergyBurned, 10, "kJ"), quantity(.activeEnergyBurned, 10, "kcal"),
        quantity(.basalEnergyBurned, 10, "kcal"), quantity(.activeEnergyBurned, 10, "kcal"),
        quantity(.distanceWalkingRunning, 1_000, "m"), quantity(.distanceCycling, 1_000, "m"),
        quantity(.distanceWalkingRunning, 1, "km"), quantity(.distanceWalkingRunning, 1, "mi"),
        quantity(.bodyTemperature, 37, "degC"), quantity(.basalBodyTemperature, 37, "degC"),
        quantity(.bodyTemperature, 98.6, "degF"), quantity(.heartRate, 60, "count/min"),
        quantity(.stepCount, 60, "count"), quantity(.heartRate, 1, "count/s"),
        SampleRecord(uuid: UUID(), typeIdentifier: HKCategoryTypeIdentifier.sleepAnalysis.rawValue, startDate: start,
                     endDate: start.addingTimeInterval(3600), value: .category(1)),
        quantity(.activeEnergyBurned, 10, "kJ"),
    ]

    @Test func aMixedBatchConvertsAsEachRecordAlone() throws {
        let alone = try Self.mixed.map { try SampleValidator.canonicalized($0) }
        #expect(try SampleValidator.canonicalized(batch: Self.mixed) == alone)
        // The same number in kJ and in kcal converts to different values: a reused plan would show.
        #expect(alone[2].value != alone[3].value)
        var lookups = SampleValidator.RecentLookups()
        #expect(try Self.mixed.map { try SampleValidator.canonicalized($0, using: &lookups) } == alone)
    }

    /// A record refused alone is refused in a batch after one that is accepted with the plan it
    /// would get if the remembered plan were reused: a unit that does not fit its type after the
    /// same unit string fitted the type before, and a type that is not a sample type's after one.
    @Test(arguments: [
        (quantity(.activeEnergyBurned, 10, "kcal"), quantity(.stepCount, 10, "kcal")),
        (quantity(.stepCount, 10, "count"), quantity(.activeEnergyBurned, 10, "count")),
        (quantity(.bodyTemperature, 37, "degC"), quantity(.heartRate, 37, "degC")),
        (quantity(.heartRate, 60, "count/min"), SampleRecord(uuid: UUID(), typeIdentifier: "HKQuantityTypeIdentifierHeartRatf",
                                                             startDate: start, endDate: start, value: .quantity(60, unit: "count/min"))),
    ])
    func aRecordRefusedAloneIsRefusedAfterOneThatFits(accepted: SampleRecord, refused: SampleRecord) throws {
        _ = try SampleValidator.canonicalized(accepted)
        let alone = #expect(throws: HKError.self) { try SampleValidator.canonicalized(refused) }
        let inBatch = #expect(throws: HKError.self) { try SampleValidator.canonicalized(batch: [accepted, refused]) }
        #expect(inBatch?.message == "sample 2 of 2: \(alone?.message ?? "")")
        #expect(throws: HKError.self) { try SampleValidator.check(batch: [accepted, refused]) }
    }
}
