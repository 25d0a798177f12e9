import Foundation
import HealthModel
import Testing

@testable import HealthBroker

/// healthd's own check of a sample query's sort (`SampleQueries.check`, run for the app's and
/// the manager's QuerySamples before any store work): a client that skips the SDK cannot sort
/// a non-workout query by a workout total.
@Suite(.timeLimit(.minutes(10))) struct SampleQueryCheckTests {
    @Test func workoutSortKeysAreRefusedOnEveryOtherKindOfType() {
        let others = [HKQuantityTypeIdentifier.stepCount.rawValue, HKCategoryTypeIdentifier.sleepAnalysis.rawValue,
                      HKCorrelationTypeIdentifier.bloodPressure.rawValue, "HKDataTypeIdentifierHeartbeatSeries"]
        for type in others {
            for total in WorkoutTotal.allCases {
                let spec = SampleQuerySpec(typeIdentifier: type, sort: [SampleSort(.startDate, ascending: true),
                                                                        SampleSort(.workout(total), ascending: false)])
                let error = #expect(throws: HKError.self) { try SampleQueries.check(spec) }
                #expect(error?.code == .errorInvalidArgument && error?.localizedDescription.contains(total.sortIdentifier) == true,
                        "\(type) \(total): \(String(describing: error))")
            }
        }
    }

    @Test func workoutSortKeysAreAcceptedOnWorkouts() throws {
        for total in WorkoutTotal.allCases {
            try SampleQueries.check(SampleQuerySpec(typeIdentifier: HKWorkoutTypeIdentifier, sort: [SampleSort(.workout(total), ascending: true)]))
        }
    }
}
