import Foundation
@testable import HealthBroker
import HealthModel
import HealthStore
import Testing

/// When a long-running collection may keep its last result without recomputing: same scope,
/// same source order — a window whose start only moved with the clock included (a recomputation
/// woken by a change the app cannot see would reveal that change: privacy review, session 16).
@Suite(.timeLimit(.minutes(10))) struct CollectionBasisTests {
    let own = Visibility.ownSamples(appID: "org.example.reader")
    /// A collection of steps with no predicate: it consults the steps scope only.
    let steps = ConsultedRules(predicate: nil, of: HKQuantityTypeIdentifier.stepCount.rawValue)
    /// One whose predicate names a workout: it consults the workouts' scope too.
    let stepsOfAWorkout = ConsultedRules(predicate: .and([.workout(UUID()), .quantity(.greaterThan, value: 1, unit: "count")]),
                                         of: HKQuantityTypeIdentifier.stepCount.rawValue)

    @Test func theSameScopeAndOrderCarryOver() {
        let basis = CollectionBasis(scope: own, sourceOrderVersion: 2, change: 10)
        #expect(basis.carriesOver(to: own, consulting: steps, sourceOrderVersion: 2))
        #expect(CollectionBasis(scope: .allSources, sourceOrderVersion: 0, change: 1).carriesOver(to: .allSources, consulting: steps, sourceOrderVersion: 0))
    }

    @Test func aGrantChangeOrAReorderDoesNot() {
        let basis = CollectionBasis(scope: .allSources, sourceOrderVersion: 2, change: 10)
        #expect(!basis.carriesOver(to: own, consulting: steps, sourceOrderVersion: 2))
        #expect(!basis.carriesOver(to: .allSources, consulting: steps, sourceOrderVersion: 3))
    }

    @Test func aWindowThatOnlyMovedWithTheClockDoes() {
        let then = Visibility.recentWindow(appID: "org.example.reader", since: Date(timeIntervalSince1970: 1_767_225_600))
        let now = Visibility.recentWindow(appID: "org.example.reader", since: Date(timeIntervalSince1970: 1_767_225_600 + 3_600))
        #expect(CollectionBasis(scope: then, sourceOrderVersion: 0, change: 1).carriesOver(to: now, consulting: steps, sourceOrderVersion: 0))
        // A window that became another rule is a grant change.
        #expect(!CollectionBasis(scope: then, sourceOrderVersion: 0, change: 1).carriesOver(to: .allSources, consulting: steps, sourceOrderVersion: 0))
        #expect(!CollectionBasis(scope: then, sourceOrderVersion: 0, change: 1).carriesOver(to: own, consulting: steps, sourceOrderVersion: 0))
    }

    /// The workouts a predicate names are part of the basis: a workout grant that changes
    /// recomputes, so a workout revoked applies at once; a window on workouts that only moved
    /// with the clock does not.
    @Test func aChangedWorkoutScopeDoesNot() {
        let readerOnly = ReadScope.ownSamples(appID: "org.example.reader")
        let allowed = Visibility.allSources
        let workoutsRevoked = Visibility(scope: .allSources, workouts: readerOnly, correlations: .allSources)
        #expect(!CollectionBasis(scope: allowed, sourceOrderVersion: 0, change: 1).carriesOver(to: workoutsRevoked, consulting: stepsOfAWorkout, sourceOrderVersion: 0))
        let workoutWindow = Visibility(scope: .allSources,
                                       workouts: .recentWindow(appID: "org.example.reader", since: Date(timeIntervalSince1970: 1_767_225_600)),
                                       correlations: .allSources)
        #expect(CollectionBasis(scope: workoutWindow, sourceOrderVersion: 0, change: 1).carriesOver(to: workoutWindow, consulting: stepsOfAWorkout, sourceOrderVersion: 0))
    }

    /// Privacy review, session 19, finding 2: a part of the visibility the reading does not
    /// consult — the workouts' scope without a workout predicate, the correlations' without
    /// `.noCorrelation` — changes no basis, whatever the decision; allowing workouts recomputed a
    /// collection of steps and denying did not. Generated: each unconsulted part × each change of
    /// it (allowed, a window, denied again). Failed before (the whole visibility was compared).
    @Test(arguments: ["workouts", "correlations"], [ReadScope.allSources, .recentWindow(appID: "org.example.reader", since: Date(timeIntervalSince1970: 1_767_225_600)), .ownSamples(appID: "org.example.reader")])
    func aPartTheReadingDoesNotConsultChangesNoBasis(_ part: String, _ decided: ReadScope) {
        let basis = CollectionBasis(scope: own, sourceOrderVersion: 0, grantVersion: 3, change: 1)
        var after = own
        if part == "workouts" { after.workouts = decided } else { after.correlations = decided }
        #expect(basis.carriesOver(to: after, consulting: steps, sourceOrderVersion: 0, grantVersion: 3))
        // The control: a reading that consults it recomputes when it changed.
        let consulting = part == "workouts" ? stepsOfAWorkout : ConsultedRules(predicate: .noCorrelation, of: HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue)
        #expect(basis.carriesOver(to: after, consulting: consulting, sourceOrderVersion: 0, grantVersion: 3) == (decided.clockFree == own.scope.clockFree))
    }

    /// A decision on a consulted type's grant record recomputes whatever it decided (the version
    /// moved): allowed and denied cost the same.
    @Test func aConsultedGrantRecordThatChangedDoesNotCarryOverWhateverItDecided() {
        let basis = CollectionBasis(scope: own, sourceOrderVersion: 0, grantVersion: 3, change: 1)
        #expect(!basis.carriesOver(to: own, consulting: steps, sourceOrderVersion: 0, grantVersion: 4), "denied again: the same scope")
        #expect(!basis.carriesOver(to: .allSources, consulting: steps, sourceOrderVersion: 0, grantVersion: 4), "allowed")
    }

    /// The types whose grant records a reading consults.
    @Test func theConsultedGrantTypes() {
        let steps = HKQuantityTypeIdentifier.stepCount.rawValue
        #expect(self.steps.grantTypes(of: steps) == [steps])
        #expect(stepsOfAWorkout.grantTypes(of: steps) == [steps, HKWorkoutTypeIdentifier])
        let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
        #expect(Set(ConsultedRules(predicate: .not(.noCorrelation), of: systolic).grantTypes(of: systolic))
                == [systolic, HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue])
    }
}
