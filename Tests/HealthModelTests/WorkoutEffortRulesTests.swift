import Foundation
import Testing

@testable import HealthModel

/// Which samples relate to a workout, and which one `.mostRelevant` returns
/// (HKWorkoutEffortRelationshipQuery.h: "The most relevant sample will be returned").
@Suite(.timeLimit(.minutes(10))) struct WorkoutEffortRulesTests {
    static let user = HKQuantityTypeIdentifier.workoutEffortScore.rawValue
    static let estimated = HKQuantityTypeIdentifier.estimatedWorkoutEffortScore.rawValue
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func candidate(_ type: String, minute: Double, order: Int64) -> WorkoutEffortRules.Candidate {
        let date = start.addingTimeInterval(minute * 60)
        return .init(uuid: UUID(), typeIdentifier: type, startDate: date, endDate: date, order: order)
    }

    @Test func onlyTheTwoEffortTypesRelate() throws {
        for type in [Self.user, Self.estimated] { try WorkoutEffortRules.checkEffortType(type) }
        for type in [HKQuantityTypeIdentifier.heartRate.rawValue, HKWorkoutTypeIdentifier, ""] {
            #expect(throws: HKError.self) { try WorkoutEffortRules.checkEffortType(type) }
        }
    }

    /// One dimension at a time: the type decides before the date, the date before the order.
    @Test func theUsersScoreWinsOverALaterEstimateThenTheLatestThenTheLaterRelation() {
        let oldUser = Self.candidate(Self.user, minute: 0, order: 1)
        let newEstimate = Self.candidate(Self.estimated, minute: 90, order: 2)
        #expect(WorkoutEffortRules.mostRelevant([newEstimate, oldUser]) == oldUser)
        let newUser = Self.candidate(Self.user, minute: 30, order: 0)
        #expect(WorkoutEffortRules.mostRelevant([oldUser, newEstimate, newUser]) == newUser)
        let sameTimeLater = Self.candidate(Self.user, minute: 30, order: 5)
        #expect(WorkoutEffortRules.mostRelevant([sameTimeLater, newUser]) == sameTimeLater)
        #expect(WorkoutEffortRules.mostRelevant([]) == nil)
    }
}
