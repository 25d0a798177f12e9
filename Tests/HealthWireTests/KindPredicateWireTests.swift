import Foundation
import HealthModel
import Testing
@testable import HealthWire

/// Issue 15's predicate nodes (kind_predicates.proto, `Predicate` fields 30-32) travel whole, and
/// healthd's reader refuses what no SDK call can make: numbers that are not finite, a statistic
/// of a type that is not a quantity type, more conditions than the limit.
@Suite(.timeLimit(.minutes(10))) struct KindPredicateWireTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue

    @Test func everyNodeRoundTrips() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let statistics = WorkoutStatisticTest.Statistic.allCases.map {
            WorkoutStatisticTest(quantityType: Self.heartRate, statistic: $0, op: .greaterThan, value: 2.5)
        }
        let predicates: [SamplePredicate] = WorkoutTotal.allCases.flatMap { total in
            ComparisonOperator.allCases.map { SamplePredicate.workoutValue(.total(total, $0, 1800.5)) }
        } + statistics.map { .workoutValue(.statistic($0)) } + [
            .workoutValue(.activity(.activityType(37))),
            .workoutValue(.activity(.and([.duration(.lessThanOrEqualTo, 60), .not(.or([.statistic(statistics[0]), .activityType(13)]))]))),
            .workoutValue(.activity(.dateRange(start: start, end: nil, strictStart: true, strictEnd: false))),
            .workoutValue(.activity(.dateRange(start: nil, end: start, strictStart: false, strictEnd: true))),
            .workoutValue(.activity(.or([]))),
            .categoryValues([]), .categoryValues([0, 5, -1, Int.max]),
            .electrocardiogram(.classification(100)), .electrocardiogram(.symptomsStatus(2)),
            .not(.and([.categoryValues([1]), .electrocardiogram(.classification(0))])),
        ]
        for predicate in predicates {
            let spec = SampleQuerySpec(typeIdentifier: "t", predicate: predicate)
            #expect(try SampleQuerySpec(wire: spec.wireBytes()) == spec, "\(predicate)")
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func aNumberThatIsNotFiniteIsRefused(number: Double) {
        let predicates: [SamplePredicate] = [
            .workoutValue(.total(.energyBurned, .greaterThan, number)),
            .workoutValue(.statistic(WorkoutStatisticTest(quantityType: Self.heartRate, statistic: .average, op: .lessThan, value: number))),
            .workoutValue(.activity(.not(.duration(.equalTo, number)))),
            .workoutValue(.activity(.statistic(WorkoutStatisticTest(quantityType: Self.heartRate, statistic: .sum, op: .lessThan, value: number)))),
        ]
        for predicate in predicates {
            #expect(throws: WireDecodeError.self, "\(predicate)") {
                try SampleQuerySpec(wire: SampleQuerySpec(typeIdentifier: "t", predicate: predicate).wireBytes())
            }
        }
    }

    @Test(arguments: ["", "HKCategoryTypeIdentifierSleepAnalysis", "HKWorkoutTypeIdentifier", "not a type",
                      String(repeating: "x", count: 100_000)])
    func aStatisticMustNameAQuantityType(identifier: String) {
        let predicate = SamplePredicate.workoutValue(.statistic(WorkoutStatisticTest(quantityType: identifier, statistic: .sum, op: .equalTo, value: 1)))
        #expect(throws: WireDecodeError.self) {
            try SampleQuerySpec(wire: SampleQuerySpec(typeIdentifier: "t", predicate: predicate).wireBytes())
        }
    }

    /// Activity operands count toward the condition limit like sample operands.
    @Test func activityConditionsCountTowardTheLimit() throws {
        let atLimit = SamplePredicate.workoutValue(.activity(.or(Array(repeating: .activityType(1), count: SamplePredicate.maximumConditions - 1))))
        #expect(atLimit.conditionCount == SamplePredicate.maximumConditions)
        #expect(try SampleQuerySpec(wire: SampleQuerySpec(typeIdentifier: "t", predicate: atLimit).wireBytes()).predicate == atLimit)
        let past = SamplePredicate.workoutValue(.activity(.or(Array(repeating: .activityType(1), count: SamplePredicate.maximumConditions))))
        #expect(throws: WireDecodeError.self) { try SampleQuerySpec(wire: SampleQuerySpec(typeIdentifier: "t", predicate: past).wireBytes()) }
    }
}
