import Foundation
@testable import HealthBroker
import HealthStore
import Testing

/// When a long-running collection may keep its last result without recomputing: same scope,
/// same source order — and never for a window scope, which moves with the clock.
@Suite(.timeLimit(.minutes(10))) struct CollectionBasisTests {
    let own = Visibility.ownSamples(appID: "org.example.reader")

    @Test func theSameScopeAndOrderCarryOver() {
        let basis = CollectionBasis(scope: own, sourceOrderVersion: 2, change: 10)
        #expect(basis.carriesOver(to: own, sourceOrderVersion: 2))
        #expect(CollectionBasis(scope: .allSources, sourceOrderVersion: 0, change: 1).carriesOver(to: .allSources, sourceOrderVersion: 0))
    }

    @Test func aGrantChangeOrAReorderDoesNot() {
        let basis = CollectionBasis(scope: .allSources, sourceOrderVersion: 2, change: 10)
        #expect(!basis.carriesOver(to: own, sourceOrderVersion: 2))
        #expect(!basis.carriesOver(to: .allSources, sourceOrderVersion: 3))
    }

    @Test func aWindowScopeNeverDoes() {
        let window = Visibility.recentWindow(appID: "org.example.reader", since: Date(timeIntervalSince1970: 1_767_225_600))
        #expect(!CollectionBasis(scope: window, sourceOrderVersion: 0, change: 1).carriesOver(to: window, sourceOrderVersion: 0))
    }

    /// The workouts a predicate names are part of the basis: a workout grant that changes, or a
    /// window on workouts alone, recomputes, so a workout revoked or expired applies at once.
    @Test func aChangedOrWindowedWorkoutScopeDoesNot() {
        let readerOnly = ReadScope.ownSamples(appID: "org.example.reader")
        let allowed = Visibility.allSources
        let workoutsRevoked = Visibility(scope: .allSources, workouts: readerOnly, correlations: .allSources)
        #expect(!CollectionBasis(scope: allowed, sourceOrderVersion: 0, change: 1).carriesOver(to: workoutsRevoked, sourceOrderVersion: 0))
        let workoutWindow = Visibility(scope: .allSources,
                                       workouts: .recentWindow(appID: "org.example.reader", since: Date(timeIntervalSince1970: 1_767_225_600)),
                                       correlations: .allSources)
        #expect(!CollectionBasis(scope: workoutWindow, sourceOrderVersion: 0, change: 1).carriesOver(to: workoutWindow, sourceOrderVersion: 0))
    }
}
