import Foundation
@testable import HealthBroker
import HealthStore
import Testing

/// When a long-running collection may keep its last result without recomputing: same scope,
/// same source order — a window whose start only moved with the clock included (a recomputation
/// woken by a change the app cannot see would reveal that change: privacy review, session 16).
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

    @Test func aWindowThatOnlyMovedWithTheClockDoes() {
        let then = Visibility.recentWindow(appID: "org.example.reader", since: Date(timeIntervalSince1970: 1_767_225_600))
        let now = Visibility.recentWindow(appID: "org.example.reader", since: Date(timeIntervalSince1970: 1_767_225_600 + 3_600))
        #expect(CollectionBasis(scope: then, sourceOrderVersion: 0, change: 1).carriesOver(to: now, sourceOrderVersion: 0))
        // A window that became another rule is a grant change.
        #expect(!CollectionBasis(scope: then, sourceOrderVersion: 0, change: 1).carriesOver(to: .allSources, sourceOrderVersion: 0))
        #expect(!CollectionBasis(scope: then, sourceOrderVersion: 0, change: 1).carriesOver(to: own, sourceOrderVersion: 0))
    }

    /// The workouts a predicate names are part of the basis: a workout grant that changes
    /// recomputes, so a workout revoked applies at once; a window on workouts that only moved
    /// with the clock does not.
    @Test func aChangedWorkoutScopeDoesNot() {
        let readerOnly = ReadScope.ownSamples(appID: "org.example.reader")
        let allowed = Visibility.allSources
        let workoutsRevoked = Visibility(scope: .allSources, workouts: readerOnly, correlations: .allSources)
        #expect(!CollectionBasis(scope: allowed, sourceOrderVersion: 0, change: 1).carriesOver(to: workoutsRevoked, sourceOrderVersion: 0))
        let workoutWindow = Visibility(scope: .allSources,
                                       workouts: .recentWindow(appID: "org.example.reader", since: Date(timeIntervalSince1970: 1_767_225_600)),
                                       correlations: .allSources)
        #expect(CollectionBasis(scope: workoutWindow, sourceOrderVersion: 0, change: 1).carriesOver(to: workoutWindow, sourceOrderVersion: 0))
    }
}
