import Foundation
import Testing
@testable import HealthModel

/// The value-range table (`QuantityValueRanges`) and its check on save (`QuantityValueCheck`
/// through `SampleValidator`): values are checked after conversion to the canonical unit,
/// refusals name type, value, unit and range in the app's unit.
@Suite(.timeLimit(.minutes(10))) struct QuantityValueRangeTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func sample(_ identifier: HKQuantityTypeIdentifier, _ value: Double, _ unit: String) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: identifier.rawValue, startDate: start,
                     endDate: start.addingTimeInterval(60), value: .quantity(value, unit: unit))
    }

    static func rejection(_ identifier: HKQuantityTypeIdentifier, _ value: Double, _ unit: String) -> HKError? {
        do {
            _ = try SampleValidator.canonicalized(sample(identifier, value, unit))
            return nil
        } catch {
            return error
        }
    }

    @Test func everyRegisteredQuantityTypeHasOneRowWithFiniteBoundsInACompatibleUnit() throws {
        let identifiers = QuantityTypeDefinition.all.map(\.identifier)
        #expect(Set(QuantityValueRanges.all.map(\.identifier)) == Set(identifiers))
        #expect(QuantityValueRanges.all.count == Set(QuantityValueRanges.all.map(\.identifier)).count)
        for identifier in identifiers {
            let row = try #require(QuantityValueRanges.range(for: identifier))
            let type = HKQuantityType(identifier)
            let canonical = try #require(row.bounds(in: type.canonicalUnit), "\(identifier.rawValue) bounds do not convert")
            #expect(canonical.lowerBound.isFinite && canonical.upperBound.isFinite)
            #expect(canonical.upperBound <= QuantityValueRanges.ceiling * 1e3, "\(identifier.rawValue)")
        }
    }

    @Test func aValueFiniteAsGivenButInfiniteInTheCanonicalUnitIsRefused() throws {
        // 1e308 beats per millisecond is +inf in count/s: the bug the issue saw stored.
        let error = try #require(Self.rejection(.heartRate, 1e308, "count/ms"))
        #expect(error.code == .errorInvalidArgument)
        #expect(error.message.contains("HKQuantityTypeIdentifierHeartRate"))
        #expect(error.message.contains("count/ms"))
        #expect(error.message.contains("not a finite number"))
    }

    @Test(arguments: [0.0, -1, 0.999, 300.001, 1e9, -.infinity, .nan])
    func heartRateOutsideOneTo300BpmIsRefused(_ bpm: Double) throws {
        let error = try #require(Self.rejection(.heartRate, bpm, "count/min"))
        #expect(error.code == .errorInvalidArgument)
        if bpm.isFinite {
            #expect(error.message.contains("\(bpm) count/min"))
            #expect(error.message.contains("allowed range 1 to 300 count/min"))
        }
    }

    @Test(arguments: [1.0, 72, 300])
    func heartRateAtAndInsideTheBoundsIsAccepted(_ bpm: Double) throws {
        #expect(Self.rejection(.heartRate, bpm, "count/min") == nil)
        // The same bounds in the canonical unit: 1/60 and 5 beats per second.
        #expect(Self.rejection(.heartRate, bpm / 60, "count/s") == nil)
    }

    @Test func theRangeIsStatedInTheUnitTheAppUsed() throws {
        let error = try #require(Self.rejection(.heartRate, 6, "count/s"))
        #expect(error.message.contains("allowed range 0.016666667 to 5 count/s"), "\(error.message)")
        let weight = try #require(Self.rejection(.bodyMass, 3000, "lb"))
        #expect(weight.message.contains("3000.0 lb"), "\(weight.message)")
        #expect(weight.message.contains("to 2204.622621849 lb"), "\(weight.message)")
    }

    @Test func negativeCountsAndTooManyStepsAreRefusedZeroAndTheMaximumAccepted() {
        #expect(Self.rejection(.stepCount, -1, "count")?.code == .errorInvalidArgument)
        #expect(Self.rejection(.stepCount, 1e308, "count")?.code == .errorInvalidArgument)
        #expect(Self.rejection(.stepCount, 1_000_001, "count")?.code == .errorInvalidArgument)
        #expect(Self.rejection(.stepCount, 0, "count") == nil)
        #expect(Self.rejection(.stepCount, 1_000_000, "count") == nil)
        #expect(Self.rejection(.pushCount, -5, "count")?.code == .errorInvalidArgument)
        #expect(Self.rejection(.dietaryProtein, -0.1, "g")?.code == .errorInvalidArgument)
    }

    @Test func aTypeThatMayBeNegativeAcceptsNegativeValuesInItsRange() {
        #expect(Self.rejection(.waterTemperature, -1.5, "degC") == nil)
        #expect(Self.rejection(.waterTemperature, -6, "degC")?.code == .errorInvalidArgument)
        // Fahrenheit is an affine unit: 212 °F is 100 °C, the upper bound.
        #expect(Self.rejection(.bodyTemperature, 212, "degF") == nil)
        // Stored on the bound, not a rounding step past it (statistics check it exactly).
        let stored = try? SampleValidator.canonicalized(Self.sample(.bodyTemperature, 212, "degF"))
        #expect(stored?.value == .quantity(100, unit: "degC"))
        #expect(Self.rejection(.bodyTemperature, 213, "degF")?.code == .errorInvalidArgument)
    }

    @Test func aSignOnlyTypeIsBoundedByTheCeilingSoSumsStayFinite() {
        #expect(Self.rejection(.dietaryProtein, QuantityValueRanges.ceiling, "g") == nil)
        #expect(Self.rejection(.dietaryProtein, QuantityValueRanges.ceiling * 2, "g")?.code == .errorInvalidArgument)
        #expect(Self.rejection(.dietaryProtein, .leastNonzeroMagnitude, "g") == nil)
    }

    @Test func statisticsLeaveOutStoredValuesOutsideTheRange() throws {
        // A store written before the check may hold +inf or 1e308 steps: the sum stays finite.
        let type = HKQuantityType(.stepCount)
        let calculator = StatisticsCalculator(type: type, options: .cumulativeSum)
        let source = SourceRecord(bundleIdentifier: "org.example.app", name: "App")
        let samples = [StatisticsSample(start: 0, end: 60_000_000, value: 100),
                       StatisticsSample(start: 60_000_000, end: 120_000_000, value: .infinity),
                       StatisticsSample(start: 120_000_000, end: 180_000_000, value: 1e308),
                       StatisticsSample(start: 180_000_000, end: 240_000_000, value: 1e308)]
        let result = try #require(calculator.statistics(of: [SourceSamples(source: source, samples: samples)], window: nil))
        let sum = try #require(result.merged.sum)
        #expect(sum == 100)
    }

    @Test func aPredicateQuantityInfiniteInTheCanonicalUnitIsRefused() {
        let predicate = SamplePredicate.quantity(.greaterThan, value: 1e308, unit: "count/ms")
        #expect(throws: HKError.self) { try predicate.canonicalized(for: HKQuantityType(.heartRate)) }
    }
}
