import Foundation
@testable import HealthBroker
import HealthStore
import Testing

/// When a long-running collection may keep its last result without recomputing: same scope,
/// same source order — and never for a window scope, which moves with the clock.
@Suite struct CollectionBasisTests {
    let own = ReadScope.ownSamples(appID: "org.example.reader")

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
        let window = ReadScope.recentWindow(appID: "org.example.reader", since: Date(timeIntervalSince1970: 1_767_225_600))
        #expect(!CollectionBasis(scope: window, sourceOrderVersion: 0, change: 1).carriesOver(to: window, sourceOrderVersion: 0))
    }
}
