import Foundation
import Testing
@testable import HealthModel

/// The type registry against the reference tables: every row is registered with the table's
/// canonical unit, aggregation style and allowed values, and nothing else is.
@Suite(.timeLimit(.minutes(10))) struct ObjectTypeRegistryTests {
    @Test func everyQuantityTypeMatchesItsRow() throws {
        let rows = try SpecTable.load("quantity_types.tsv")
        #expect(rows.count == 120)
        #expect(HKQuantityTypeIdentifier.registered.map(\.rawValue) == rows.map { $0["identifier"]! })
        for row in rows {
            let identifier = HKQuantityTypeIdentifier(rawValue: row["identifier"]!)
            let type = try #require(HKObjectType.quantityType(forIdentifier: identifier), "\(identifier.rawValue)")
            #expect(type.identifier == row["identifier"]!)
            #expect("\(type.aggregationStyle)" == row["aggregation_style"]!, "\(identifier.rawValue)")
            let canonical = try HKUnit.parse(row["canonical_unit_in_header"]!)
            #expect(type.canonicalUnit == canonical, "\(identifier.rawValue)")
            #expect(type.is(compatibleWith: canonical))
            #expect(HKQuantityType(identifier) == type)
        }
    }

    @Test func everyCategoryTypeAllowsExactlyItsRowsValues() throws {
        let rows = try SpecTable.load("category_types.tsv")
        #expect(rows.count == 70)
        #expect(HKCategoryTypeIdentifier.registered.map(\.rawValue) == rows.map { $0["identifier"]! })
        for row in rows {
            let identifier = HKCategoryTypeIdentifier(rawValue: row["identifier"]!)
            let type = try #require(HKObjectType.categoryType(forIdentifier: identifier), "\(identifier.rawValue)")
            var expected = Set(row["allowed_values(swift_case=raw)"]!.split(separator: ";").map { pair in
                Int(pair.split(separator: "=")[1].trimmingCharacters(in: .whitespaces))!
            })
            // The table gives hypertensionEvent no value enum; like HealthKit's other
            // notification-only events it takes HKCategoryValue.notApplicable.
            if expected.isEmpty { expected = [HKCategoryValue.notApplicable.rawValue] }
            #expect(type.allowedValues == expected, "\(identifier.rawValue)")
            #expect(HKCategoryType(identifier) == type)
        }
    }

    @Test func everyCharacteristicAndCorrelationTypeIsRegistered() throws {
        let characteristics = try SpecTable.load("characteristic_types.tsv")
        #expect(HKCharacteristicTypeIdentifier.registered.map(\.rawValue) == characteristics.map { $0["identifier"]! })
        for row in characteristics {
            let identifier = HKCharacteristicTypeIdentifier(rawValue: row["identifier"]!)
            #expect(HKObjectType.characteristicType(forIdentifier: identifier)?.identifier == row["identifier"]!)
        }
        let correlations = try SpecTable.load("correlation_types.tsv")
        #expect(HKCorrelationTypeIdentifier.registered.map(\.rawValue) == correlations.map { $0["identifier"]! })
        for row in correlations {
            let identifier = HKCorrelationTypeIdentifier(rawValue: row["identifier"]!)
            #expect(HKObjectType.correlationType(forIdentifier: identifier)?.identifier == row["identifier"]!)
        }
    }

    @Test func staticMembersNameHealthKitsIdentifiers() {
        #expect(HKQuantityTypeIdentifier.stepCount.rawValue == "HKQuantityTypeIdentifierStepCount")
        #expect(HKQuantityTypeIdentifier.heartRate.rawValue == "HKQuantityTypeIdentifierHeartRate")
        #expect(HKQuantityTypeIdentifier.vo2Max.rawValue == "HKQuantityTypeIdentifierVO2Max")
        #expect(HKCategoryTypeIdentifier.sleepAnalysis.rawValue == "HKCategoryTypeIdentifierSleepAnalysis")
        #expect(HKCharacteristicTypeIdentifier.dateOfBirth.rawValue == "HKCharacteristicTypeIdentifierDateOfBirth")
        #expect(HKCorrelationTypeIdentifier.bloodPressure.rawValue == "HKCorrelationTypeIdentifierBloodPressure")
    }

    @Test func allTypesIsCompleteAndEachIdentifierResolvesToItsSharedInstance() {
        let all = HKObjectType.allTypes
        #expect(all.count == 120 + 70 + 6 + 2 + 6 + 2 + 1 + 1 + 9 + 1 + 2)  // workout, route, heartbeat series, activity summary, ECG, state of mind; GAD-7, PHQ-9; audiogram; CDA; clinical; vision prescription; medication dose event, medication
        #expect(Set(all.map(\.identifier)).count == all.count)
        for type in all {
            #expect(HKObjectType.type(forIdentifier: type.identifier) === type)
        }
        #expect(HKObjectType.type(forIdentifier: "HKWorkoutTypeIdentifier") === HKObjectType.workoutType())
        #expect(HKObjectType.type(forIdentifier: "HKWorkoutRouteTypeIdentifier") === HKSeriesType.workoutRoute())
        #expect(HKObjectType.activitySummaryType().identifier == "HKActivitySummaryTypeIdentifier")
        #expect(HKSeriesType.heartbeat().identifier == HKDataTypeIdentifierHeartbeatSeries)
    }

    @Test func workoutTypeIdentifierMatchesStringConstantsTable() throws {
        let row = try #require(try SpecTable.load("string_constants.tsv").first { $0["constant"] == "HKWorkoutTypeIdentifier" })
        #expect(HKWorkoutTypeIdentifier == row["raw_string_value"]!)
        #expect(HKObjectType.workoutType().identifier == HKWorkoutTypeIdentifier)
    }

    @Test(arguments: ["", "HKQuantityTypeIdentifierStepcount", "stepCount", "HKQuantityTypeIdentifierStepCount ",
                      String(repeating: "HK", count: 10_000), "HKQuantityTypeIdentifier\u{0}StepCount"])
    func unknownIdentifiersFromPeersResolveToNil(_ identifier: String) {
        #expect(HKObjectType.type(forIdentifier: identifier) == nil)
        #expect(HKObjectType.quantityType(forIdentifier: .init(rawValue: identifier)) == nil)
    }

    @Test func typesCompareByIdentifier() {
        let stepCount = HKQuantityType(.stepCount)
        #expect(stepCount == HKObjectType.quantityType(forIdentifier: .stepCount))
        #expect(stepCount != HKQuantityType(.heartRate))
        #expect(Set<HKObjectType>([stepCount, HKQuantityType(.stepCount), HKObjectType.workoutType()]).count == 2)
        #expect(stepCount.description == "HKQuantityTypeIdentifierStepCount")
    }

    @Test func unitCompatibilityFollowsTheCanonicalUnit() {
        let heartRate = HKQuantityType(.heartRate)
        #expect(heartRate.is(compatibleWith: HKUnit(from: "count/min")))
        #expect(!heartRate.is(compatibleWith: .gram()))
        let glucose = HKQuantityType(.bloodGlucose)
        #expect(glucose.is(compatibleWith: HKUnit(from: "mmol<180.1558800000541>/L")))
        #expect(HKQuantityType(.vo2Max).canonicalUnit.unitString == "mL/min·kg")
    }

    @Test func noTypeHasADurationRestriction() {
        for case let type as HKSampleType in HKObjectType.allTypes {
            #expect(!type.isMinimumDurationRestricted && !type.isMaximumDurationRestricted)
            #expect(type.minimumAllowedDuration == 0 && type.maximumAllowedDuration == .infinity)
        }
    }

    @Test func aggregationStyleRawValuesMatchTheEnumsTable() throws {
        let rows = try SpecTable.load("enums.tsv").filter { $0["enum"] == "HKQuantityAggregationStyle" }
        #expect(rows.count == HKQuantityAggregationStyle.allCases.count)
        for row in rows {
            let style = try #require(HKQuantityAggregationStyle(rawValue: Int(row["raw_value"]!)!))
            #expect("\(style)" == row["swift_case"]!)
        }
        #expect(HKQuantityAggregationStyle.discrete == .discreteArithmetic)
    }
}
