import Foundation
import Testing
@testable import HealthModel

/// The two ways a whole save is validated (issue 17): healthd's `canonicalize(batch:)`, which
/// converts the batch where it lies, and the SDK's `check(batch:)`, which builds nothing. Both
/// must refuse exactly what the other refuses, with the same error, so an app meets the same
/// message before sending as healthd would give it.
@Suite(.timeLimit(.minutes(10))) struct SampleValidatorBatchTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func quantity(_ type: HKQuantityTypeIdentifier, _ value: Double, _ unit: String,
                         seconds: TimeInterval = 60, _ metadata: [String: MetadataValue] = [:]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type.rawValue, startDate: start, endDate: start.addingTimeInterval(seconds),
                     value: .quantity(value, unit: unit), metadata: metadata)
    }

    static func sleep(_ value: Int, _ metadata: [String: MetadataValue] = [:]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKCategoryTypeIdentifier.sleepAnalysis.rawValue, startDate: start,
                     endDate: start.addingTimeInterval(3600), value: .category(value), metadata: metadata)
    }

    static func sync(_ identifier: String, _ version: Double) -> [String: MetadataValue] {
        [HKMetadataKeySyncIdentifier: .string(identifier), HKMetadataKeySyncVersion: .number(version)]
    }

    /// One bad thing each (type, unit, value, range, dates, category, metadata, sync pair and
    /// duplicate, its position in a batch), and the extremes of a value.
    static let refused: [(String, [SampleRecord])] = [
        ("unknown type", [SampleRecord(uuid: UUID(), typeIdentifier: "HKQuantityTypeIdentifierMadeUp", startDate: start,
                                       endDate: start, value: .quantity(1, unit: "count"))]),
        ("unparsable unit", [quantity(.stepCount, 1, "count/(")]),
        ("incompatible unit", [quantity(.stepCount, 1, "kg")]),
        ("not finite", [quantity(.heartRate, .nan, "count/min")]),
        ("infinite", [quantity(.heartRate, -.infinity, "count/min")]),
        ("greatest double", [quantity(.distanceWalkingRunning, .greatestFiniteMagnitude, "km")]),
        ("out of range", [quantity(.heartRate, 100_000, "count/min")]),
        ("negative steps", [quantity(.stepCount, -1, "count")]),
        ("end before start", [quantity(.stepCount, 1, "count", seconds: -1)]),
        ("before 1900", [SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue,
                                      startDate: SampleLimits.earliestPermittedSampleDate.addingTimeInterval(-1),
                                      endDate: start, value: .quantity(1, unit: "count"))]),
        ("category value", [sleep(99)]),
        ("category on a quantity type", [SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue,
                                                      startDate: start, endDate: start, value: .category(1))]),
        ("reserved key", [sleep(1, ["HKMadeUpKey": .string("x")])]),
        ("metadata kind", [sleep(1, [HKMetadataKeyWasUserEntered: .string("yes")])]),
        ("long metadata string", [sleep(1, ["note": .string(String(repeating: "é", count: SampleLimits.maximumMetadataStringBytes))])]),
        ("half sync pair", [sleep(1, [HKMetadataKeySyncIdentifier: .string("night")])]),
        ("second of three", [sleep(1), quantity(.stepCount, 1, "kg"), sleep(0)]),
        ("last of three", [sleep(1), sleep(0), sleep(7)]),
        ("duplicate sync identifier", [sleep(1, sync("night", 1)), quantity(.stepCount, 3, "count"), sleep(0, sync("night", 2))]),
    ]

    static let accepted: [(String, [SampleRecord])] = [
        ("one", [quantity(.stepCount, 0, "count")]),
        ("mixed units and kinds", [quantity(.distanceWalkingRunning, 1.5, "km"), quantity(.bodyTemperature, 98.6, "degF"),
                                   sleep(1, sync("night", 1)), sleep(0, sync("day", 1))]),
        ("a thousand", (0..<1_000).map { quantity(.activeEnergyBurned, Double($0 % 50), "kcal") }),
    ]

    static func error(_ validate: () throws(HKError) -> Void) -> HKError? {
        do {
            try validate()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: refused.indices)
    func theSDKsCheckRefusesWhatHealthdRefusesWithTheSameError(_ index: Int) throws {
        let (what, batch) = Self.refused[index]
        let healthd = try #require(Self.error { () throws(HKError) in
            var copy = batch
            try SampleValidator.canonicalize(batch: &copy)
        }, "\(what)")
        let sdk = try #require(Self.error { () throws(HKError) in try SampleValidator.check(batch: batch) }, "\(what)")
        #expect(sdk.code == healthd.code, "\(what)")
        #expect(sdk.message == healthd.message, "\(what)")
    }

    @Test(arguments: accepted.indices)
    func bothAcceptAValidBatch(_ index: Int) throws {
        let (what, batch) = Self.accepted[index]
        #expect(Self.error { () throws(HKError) in try SampleValidator.check(batch: batch) } == nil, "\(what)")
        var canonical = batch
        let refusal = Self.error { () throws(HKError) in try SampleValidator.canonicalize(batch: &canonical) }
        #expect(refusal == nil, "\(what)")
        #expect(canonical.count == batch.count)
    }

    /// healthd converts a decoded batch in its own storage: no second array of records.
    @Test func healthdCanonicalizesTheBatchWhereItLies() throws {
        var batch = [Self.quantity(.distanceWalkingRunning, 1.5, "km"), Self.sleep(1), Self.quantity(.bodyTemperature, 212, "degF")]
        let storage = batch.withUnsafeBufferPointer { $0.baseAddress }
        try SampleValidator.canonicalize(batch: &batch)
        #expect(batch.withUnsafeBufferPointer { $0.baseAddress } == storage)
        guard case let .quantity(meters, "m") = batch[0].value, case let .quantity(celsius, "degC") = batch[2].value else {
            Issue.record("not canonical: \(batch.map(\.value))")
            return
        }
        #expect(abs(meters - 1_500) < 1e-9)
        #expect(abs(celsius - 100) < 1e-9)
        #expect(batch[1].value == .category(1))
    }

    /// The SDK's check leaves what it was given as it was (healthd converts).
    @Test func theSDKsCheckConvertsNothing() throws {
        let batch = [Self.quantity(.distanceWalkingRunning, 1.5, "km")]
        try SampleValidator.check(batch: batch)
        #expect(batch[0].value == .quantity(1.5, unit: "km"))
    }
}
