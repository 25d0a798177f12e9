import Foundation
import GRDB
import HealthModel
import HealthStore
import Synchronization
import Testing

@testable import HealthBroker

/// The scheduler that wakes long-running queries when a temporary grant expires, over a real
/// grants table and the wall clock: it posts for the app whose grant expired, not before the
/// expiry instant and with nothing else happening, and a grant change that brings the next
/// expiry closer is honoured once `reschedule()` is called. (How late it may be depends on the
/// machine's load, so no bound is asserted; `GrantExpiryEndToEndTests` shows it within seconds.)
@Suite(.timeLimit(.minutes(10))) struct GrantExpirySchedulerTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue

    /// The apps notified, with when.
    final class Notifications: Sendable {
        private let posted = Mutex<[(app: String, at: Date)]>([])
        func append(_ app: String) { posted.withLock { $0.append((app, Date())) } }
        var all: [(app: String, at: Date)] { posted.withLock { $0 } }

        /// Waits (at most `timeout` seconds) until `app` was notified; when, or nil.
        /// Generous: under a full parallel test run the task may wait long for a thread.
        func wait(for app: String, timeout: TimeInterval = 60) async throws -> Date? {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if let hit = all.first(where: { $0.app == app }) { return hit.at }
                try await Task.sleep(for: .milliseconds(5))
            }
            return nil
        }
    }

    static func scheduler(over database: HealthDatabase, notifying notifications: Notifications) -> GrantExpiryScheduler {
        let engine = AuthorizationEngine(grants: database.grants)
        return GrantExpiryScheduler(
            sources: .init(nextExpiry: { try engine.nextGrantExpiry(after: $0) },
                           appsExpiring: { try database.grants.appsWithGrantsExpiring(after: $0, through: $1) },
                           now: { Date() }),
            failed: { Issue.record($0) },
            notify: { notifications.append($0) })
    }

    static func database(apps: [String]) throws -> HealthDatabase {
        let database = try HealthDatabase(writer: DatabaseQueue())
        for app in apps {
            _ = try database.apps.install(AppManifest(id: app, displayName: app, executable: "/usr/bin/\(app)", version: "1",
                                                      readUsageDescription: "reads"))
        }
        return database
    }

    static func grant(expiringIn seconds: TimeInterval) -> [GrantDecision] {
        [GrantDecision(heartRate, .read, .authorized, limits: GrantLimits(expiry: Date().addingTimeInterval(seconds)))]
    }

    @Test func theAppIsNotifiedAtItsGrantsExpiryAndOnlyThen() async throws {
        let database = try Self.database(apps: ["soon", "later"])
        // The scheduler first, as in the broker (it starts before any grant can expire): it
        // posts expiries after its creation, so a grant expiring before it existed — possible
        // on a loaded machine if the grant came first — would rightly never be posted.
        let notifications = Notifications()
        let scheduler = Self.scheduler(over: database, notifying: notifications)
        defer { scheduler.cancel() }
        try database.grants.apply(appID: "soon", Self.grant(expiringIn: 0.3))
        try database.grants.apply(appID: "later", Self.grant(expiringIn: 3600))
        let expiry = try #require(try database.grants.decisions(appID: "soon").first?.limits.expiry)
        scheduler.reschedule()

        let notified = try #require(try await notifications.wait(for: "soon"))
        #expect(notified >= expiry)
        try await Task.sleep(for: .milliseconds(200))
        #expect(notifications.all.map(\.app) == ["soon"])
    }

    @Test func aCloserExpiryIsHonouredAfterReschedule() async throws {
        let database = try Self.database(apps: ["first", "second"])
        let notifications = Notifications()
        let scheduler = Self.scheduler(over: database, notifying: notifications)
        try database.grants.apply(appID: "first", Self.grant(expiringIn: 3600))
        defer { scheduler.cancel() }
        scheduler.reschedule()
        try await Task.sleep(for: .milliseconds(50))  // asleep until the first grant's expiry

        try database.grants.apply(appID: "second", Self.grant(expiringIn: 0.2))
        scheduler.reschedule()
        #expect(try await notifications.wait(for: "second") != nil)
        #expect(!notifications.all.contains { $0.app == "first" })
    }

    /// Planned only after the expiry passed (a grant change came late): still posted.
    @Test func anExpiryPassedBeforeTheSchedulerLookedIsPosted() async throws {
        let database = try Self.database(apps: ["missed"])
        let notifications = Notifications()
        let scheduler = Self.scheduler(over: database, notifying: notifications)
        defer { scheduler.cancel() }
        try database.grants.apply(appID: "missed", Self.grant(expiringIn: 0.05))
        try await Task.sleep(for: .milliseconds(200))
        scheduler.reschedule()
        #expect(try await notifications.wait(for: "missed") != nil)
    }

    @Test func withoutTemporaryGrantsNothingIsPosted() async throws {
        let database = try Self.database(apps: ["forever"])
        try database.grants.apply(appID: "forever", [GrantDecision(Self.heartRate, .read, .authorized)])
        let notifications = Notifications()
        let scheduler = Self.scheduler(over: database, notifying: notifications)
        defer { scheduler.cancel() }
        scheduler.reschedule()
        try await Task.sleep(for: .milliseconds(300))
        #expect(notifications.all.isEmpty)
    }
}
