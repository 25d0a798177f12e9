import Foundation
import GRDB
import HealthModel
import HealthStore
import Synchronization
import Testing

@testable import HealthBroker

/// Temporary grants as the authorization engine applies them, on a clock the test moves: an
/// expired grant is denied in every answer at its expiry instant, a window moves with the
/// clock, and the next expiry is reported for whoever re-scopes long-running queries.
@Suite(.timeLimit(.minutes(10))) struct TemporaryGrantEngineTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let app = AppManifest(id: "org.example.coach", displayName: "Coach", executable: "/usr/bin/coach", version: "1",
                                 readUsageDescription: "reads", shareUsageDescription: "writes")

    /// A clock that only moves when told to.
    final class TestClock: Sendable {
        private let current = Mutex(TemporaryGrantEngineTests.start)
        var now: Date { current.withLock { $0 } }
        func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
    }

    static func engine(_ grants: [GrantDecision]) throws -> (AuthorizationEngine, TestClock) {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try database.apps.install(app)
        try database.grants.apply(appID: app.id, grants, at: start)
        let clock = TestClock()
        return (AuthorizationEngine(grants: database.grants, now: { clock.now }), clock)
    }

    @Test func anExpiredReadGrantScopesLikeARevokedOne() throws {
        let (engine, clock) = try Self.engine([
            GrantDecision(Self.heartRate, .read, .authorized, limits: GrantLimits(expiry: Self.start.addingTimeInterval(2))),
        ])
        #expect(try engine.readScope(app: Self.app, type: Self.heartRate).scope == .allSources)
        clock.advance(by: 1.999)
        #expect(try engine.readScope(app: Self.app, type: Self.heartRate).scope == .allSources)
        clock.advance(by: 0.001)
        #expect(try engine.readScope(app: Self.app, type: Self.heartRate).scope == .ownSamples(appID: Self.app.id))
    }

    @Test func anExpiredShareGrantRefusesSavesAndReportsDenied() throws {
        let (engine, clock) = try Self.engine([
            GrantDecision(Self.heartRate, .share, .authorized, limits: GrantLimits(expiry: Self.start.addingTimeInterval(3600))),
        ])
        #expect(try engine.sharingStatus(app: Self.app, type: Self.heartRate) == .sharingAuthorized)
        #expect(throws: Never.self) { try engine.checkSave(app: Self.app, types: [Self.heartRate]) }
        clock.advance(by: 3600)
        #expect(try engine.sharingStatus(app: Self.app, type: Self.heartRate) == .sharingDenied)
        #expect(throws: HKError(.errorAuthorizationDenied, "authorization to share \(Self.heartRate) is denied")) {
            try engine.checkSave(app: Self.app, types: [Self.heartRate])
        }
    }

    /// Expired is decided, like revoked: asking again does not prompt the user.
    @Test func anExpiredGrantIsNotUndetermined() throws {
        let (engine, clock) = try Self.engine([
            GrantDecision(Self.heartRate, .read, .authorized, limits: GrantLimits(expiry: Self.start.addingTimeInterval(1))),
        ])
        clock.advance(by: 5)
        let request = try ValidatedAuthorizationRequest(app: Self.app, share: [], read: [Self.heartRate])
        let open = try engine.undetermined(app: Self.app, request)
        #expect(open.read.isEmpty && open.share.isEmpty)
        #expect(try engine.effectiveGrants(appID: Self.app.id).map(\.decision) == [.denied])
    }

    @Test func aWindowEndsAtTheMomentOfEachQuery() throws {
        let (engine, clock) = try Self.engine([
            GrantDecision(Self.heartRate, .read, .authorized, limits: GrantLimits(dataWindow: 30 * 86_400)),
        ])
        #expect(try engine.readScope(app: Self.app, type: Self.heartRate).scope
                == .recentWindow(appID: Self.app.id, since: Self.start.addingTimeInterval(-30 * 86_400)))
        clock.advance(by: 86_400)
        #expect(try engine.readScope(app: Self.app, type: Self.heartRate).scope
                == .recentWindow(appID: Self.app.id, since: Self.start.addingTimeInterval(-29 * 86_400)))
    }

    @Test func aWindowedGrantThatExpiredHidesEvenTheWindow() throws {
        let (engine, clock) = try Self.engine([
            GrantDecision(Self.heartRate, .read, .authorized,
                          limits: GrantLimits(dataWindow: 86_400, expiry: Self.start.addingTimeInterval(60))),
        ])
        clock.advance(by: 60)
        #expect(try engine.readScope(app: Self.app, type: Self.heartRate).scope == .ownSamples(appID: Self.app.id))
    }

    @Test func theNextExpiryMovesOnAsGrantsLapse() throws {
        let first = Self.start.addingTimeInterval(10), second = Self.start.addingTimeInterval(20)
        let (engine, clock) = try Self.engine([
            GrantDecision(Self.heartRate, .read, .authorized, limits: GrantLimits(expiry: second)),
            GrantDecision(Self.heartRate, .share, .authorized, limits: GrantLimits(expiry: first)),
        ])
        #expect(try engine.nextGrantExpiry() == first)
        clock.advance(by: 10)
        #expect(try engine.nextGrantExpiry() == second)
        clock.advance(by: 10)
        #expect(try engine.nextGrantExpiry() == nil)
    }

    @Test(arguments: [
        (GrantDecision(heartRate, .share, .authorized, limits: GrantLimits(dataWindow: 60)), "a data window applies to read access only"),
        (GrantDecision(heartRate, .read, .denied, limits: GrantLimits(expiry: start.addingTimeInterval(60))), "applies to an authorized grant only"),
        (GrantDecision(heartRate, .read, .authorized, limits: GrantLimits(expiry: start)), "the expiry is already past"),
        (GrantDecision(heartRate, .read, .authorized, limits: GrantLimits(dataWindow: 0.5 * GrantLimits.longestWindow * 3)), "between 1 second and 100 years"),
    ])
    func meaninglessLimitsAreRefused(grant: GrantDecision, reason: String) {
        #expect {
            try GrantLimitsCheck.check([grant], now: Self.start)
        } throws: { error in
            (error as? HKError)?.code == .errorInvalidArgument && "\(error)".contains(reason)
        }
    }
}
