import Foundation
import Testing
@testable import HealthModel

/// What `SampleValidator` accepts and rejects, and that its messages name the field or key
/// without the value.
@Suite(.timeLimit(.minutes(10))) struct SampleValidatorTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func steps(_ metadata: [String: MetadataValue] = [:], unit: String = "count",
                      start: Date = start, end: Date? = nil) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, startDate: start,
                     endDate: end ?? start.addingTimeInterval(60), value: .quantity(12, unit: unit), metadata: metadata)
    }

    static func sleep(_ value: Int, _ metadata: [String: MetadataValue] = [:]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKCategoryTypeIdentifier.sleepAnalysis.rawValue, startDate: start,
                     endDate: start.addingTimeInterval(3600), value: .category(value), metadata: metadata)
    }

    static func sync(_ identifier: String, _ version: Double) -> [String: MetadataValue] {
        [HKMetadataKeySyncIdentifier: .string(identifier), HKMetadataKeySyncVersion: .number(version)]
    }

    /// The validator's error for `record`, or nil when it accepts it.
    static func rejection(_ record: SampleRecord) -> HKError? {
        do {
            _ = try SampleValidator.canonicalized(record)
            return nil
        } catch {
            return error
        }
    }

    @Test func validSamplesAreCanonicalized() throws {
        let distance = SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.distanceWalkingRunning.rawValue,
                                    startDate: Self.start, endDate: Self.start, value: .quantity(1.5, unit: "km"))
        let canonical = try SampleValidator.canonicalized(distance).value
        guard case let .quantity(value, unit) = canonical else {
            Issue.record("a quantity sample came back as \(canonical)")
            return
        }
        #expect(abs(value - 1500) < 1e-9)
        #expect(unit == "m")
        #expect(Self.rejection(Self.sleep(1)) == nil)
    }

    @Test func wrongValuesAreRejectedWithoutNamingThem() throws {
        let category = try #require(Self.rejection(Self.sleep(987_654)))
        #expect(category.code == .errorInvalidArgument)
        #expect(category.message.contains(HKCategoryTypeIdentifier.sleepAnalysis.rawValue))
        #expect(!category.message.contains("987654"))
        #expect(Self.rejection(Self.steps(unit: "kg"))?.message.contains("not compatible") == true)
        #expect(Self.rejection(Self.steps(end: Self.start.addingTimeInterval(-1)))?.message.contains("start date is after end date") == true)
    }

    @Test func datesOutsideThePermittedWindowAreRejected() {
        let early = SampleLimits.earliestPermittedSampleDate
        #expect(Self.rejection(Self.steps(start: early)) == nil)
        #expect(Self.rejection(Self.steps(start: early.addingTimeInterval(-1), end: early))?.code == .errorInvalidArgument)
        let late = SampleLimits.latestPermittedSampleDate
        #expect(Self.rejection(Self.steps(start: late, end: late)) == nil)
        #expect(Self.rejection(Self.steps(start: late, end: late.addingTimeInterval(1)))?.code == .errorInvalidArgument)
    }

    @Test func durationLimitsOfTheTypeApply() throws {
        let limited = HKSampleType(identifier: "TestLimitedType", durationLimits: 60...3600)
        func check(_ seconds: TimeInterval) -> Bool {
            let record = Self.steps(end: Self.start.addingTimeInterval(seconds))
            return (try? SampleValidator.checkDates(record, of: limited)) != nil
        }
        #expect(check(60) && check(3600))
        #expect(!check(59) && !check(3601))
    }

    @Test func predefinedKeysMustCarryTheirKind() {
        #expect(Self.rejection(Self.steps([
            HKMetadataKeyWasUserEntered: .bool(true), HKMetadataKeyTimeZone: .string("Europe/Paris"),
            HKMetadataKeyWeatherTemperature: .quantity(value: 70, unit: "degF"),
            HKMetadataKeyDateOfEarliestDataUsedForEstimate: .date(Self.start),
            HKMetadataKeyWeatherCondition: .number(1), HKMetadataKeySessionEstimate: .quantity(value: 10, unit: "count"),
            "org.example.custom": .number(.pi),
        ])) == nil)
        let wrongKind = Self.rejection(Self.steps([HKMetadataKeyWasUserEntered: .string("yes")]))
        #expect(wrongKind?.message.contains(HKMetadataKeyWasUserEntered) == true)
        #expect(wrongKind?.message.contains("yes") == false)
        #expect(Self.rejection(Self.steps([HKMetadataKeyWeatherTemperature: .quantity(value: 70, unit: "m")])) != nil)
        #expect(Self.rejection(Self.steps([HKMetadataKeyWeatherTemperature: .quantity(value: 70, unit: "not a unit")])) != nil)
        #expect(Self.rejection(Self.steps([HKMetadataKeySessionEstimate: .quantity(value: 10, unit: "kg")])) != nil)
        #expect(Self.rejection(Self.sleep(1, [HKMetadataKeySessionEstimate: .quantity(value: 10, unit: "count")])) != nil)
        #expect(Self.rejection(Self.steps([HKMetadataKeyWeatherCondition: .number(9_999)])) != nil)
        #expect(Self.rejection(Self.steps([HKMetadataKeyWeatherCondition: .number(1.5)])) != nil)
        #expect(Self.rejection(Self.steps(["org.example.x": .number(.nan)])) != nil)
    }

    @Test func unknownKeysWithHealthKitsPrefixAreRejected() {
        let error = Self.rejection(Self.steps(["HKMadeUpKey": .string("x")]))
        #expect(error?.message.contains("HKMadeUpKey") == true)
        #expect(Self.rejection(Self.steps(["hk.lowercase.is.custom": .string("x")])) == nil)
    }

    @Test func sizeLimitsAreEnforced() {
        let many = Dictionary(uniqueKeysWithValues: (0...SampleLimits.maximumMetadataEntries).map { ("k\($0)", MetadataValue.bool(true)) })
        #expect(Self.rejection(Self.steps(many)) != nil)
        #expect(Self.rejection(Self.steps(Dictionary(uniqueKeysWithValues: many.dropFirst().map { ($0.key, $0.value) }))) == nil)
        let longKey = String(repeating: "k", count: SampleLimits.maximumMetadataKeyBytes + 1)
        #expect(Self.rejection(Self.steps([longKey: .bool(true)])) != nil)
        #expect(Self.rejection(Self.steps(["": .bool(true)])) != nil)
        let limit = SampleLimits.maximumMetadataStringBytes
        #expect(Self.rejection(Self.steps(["note": .string(String(repeating: "é", count: limit / 2))])) == nil)
        #expect(Self.rejection(Self.steps(["note": .string(String(repeating: "é", count: limit / 2 + 1))])) != nil)
    }

    @Test func syncIdentifierAndVersionComeTogether() {
        #expect(Self.rejection(Self.sleep(1, Self.sync("night-1", 3))) == nil)
        #expect(Self.sleep(1, Self.sync("night-1", 3)).syncIdentity == SyncIdentity(identifier: "night-1", version: 3))
        #expect(Self.rejection(Self.sleep(1, [HKMetadataKeySyncIdentifier: .string("night-1")]))?.message.contains(HKMetadataKeySyncVersion) == true)
        #expect(Self.rejection(Self.sleep(1, [HKMetadataKeySyncVersion: .number(1)])) != nil)
        #expect(Self.rejection(Self.sleep(1, Self.sync("night-1", 1.5))) != nil)
        #expect(Self.rejection(Self.sleep(1, Self.sync("", 1))) != nil)
        #expect(Self.rejection(Self.sleep(1, [HKMetadataKeySyncIdentifier: .number(1), HKMetadataKeySyncVersion: .number(1)])) != nil)
    }

    @Test func aBatchWithTwoSamplesOfOneSyncIdentifierIsRejected() throws {
        let batch = [Self.sleep(1, Self.sync("night-1", 1)), Self.steps(), Self.sleep(0, Self.sync("night-1", 2))]
        #expect(throws: HKError.self) { try SampleValidator.canonicalized(batch: batch) }
        do {
            _ = try SampleValidator.canonicalized(batch: batch)
        } catch {
            #expect(error.code == .errorInvalidArgument)
            #expect(error.message.contains("1 and 3"))
        }
        let distinct = [Self.sleep(1, Self.sync("night-1", 1)), Self.sleep(0, Self.sync("night-2", 1))]
        #expect(try SampleValidator.canonicalized(batch: distinct).count == 2)
    }

    @Test func aBatchErrorNamesTheFailingSample() {
        do {
            _ = try SampleValidator.canonicalized(batch: [Self.steps(), Self.steps(unit: "kg")])
            Issue.record("a batch with an invalid sample was accepted")
        } catch {
            #expect(error.message.hasPrefix("sample 2 of 2:"))
        }
    }
}
