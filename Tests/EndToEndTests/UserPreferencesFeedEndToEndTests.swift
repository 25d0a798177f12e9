import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing

/// `.HKUserPreferencesDidChange` through the whole stack: the user changes a unit with healthctl
/// in one process; an app in its sandbox, which read its units, is told.
///
/// Apple: the notification "Notifies observers whenever the user changes his or her preferred
/// units"; "Each HKHealthStore object posts its own HKUserPreferencesDidChangeNotification
/// notification. To avoid receiving duplicate notifications, always pass a health store instance
/// to the notification center when adding observers"
/// (developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/hkuserpreferencesdidchange).
/// Apple does not say which types' changes an app hears of; here only those of types it asked
/// about (any answer), the types `preferredUnits(for:)` answers it for (SECURITY.md).
@Suite(.timeLimit(.minutes(10))) struct UserPreferencesFeedEndToEndTests {
    static let bodyMass = HKQuantityTypeIdentifier.bodyMass.rawValue
    static let bloodGlucose = HKQuantityTypeIdentifier.bloodGlucose.rawValue

    @Test func anAppThatReadItsUnitsIsToldWhenTheUserChangesOne() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.scale")
        // Asked about, read denied: any answer counts, as for preferredUnits(for:) itself.
        try await broker.set(app, "read", Self.bodyMass, allowed: false)
        let watcher = try LiveApp(app, ["watch-unit-changes", Self.bodyMass, "--count", "2"], adminSocket: broker.adminSocket)
        #expect(try await watcher.waitForLine("ready"), "\(watcher.lines)")

        // Grams: no locale's default, so the line can only come from the re-read after the change.
        #expect(try await broker.healthctl(["units", "set", "bodyMass", "g"]).status == 0)
        #expect(try await watcher.waitForLine("unit \(Self.bodyMass) g"), "\(watcher.lines)")
        #expect(try await broker.healthctl(["units", "reset", "bodyMass"]).status == 0)
        let result = await watcher.finish()
        let lines = result.lines.drop { $0 != "ready" }
        #expect(Array(lines.dropFirst().prefix(2)) == ["changed 1", "unit \(Self.bodyMass) g"], "\(result)")
        #expect(lines.contains("changed 2") && lines.last == "ok 2", "\(result)")
    }

    /// A change of a type the app never asked about posts nothing: the notification would tell
    /// it the user keeps that kind of data. Another app that asked about it is told (the change
    /// did reach the feeds).
    @Test func aChangeOfATypeTheAppNeverAskedAboutDoesNotWakeIt() async throws {
        let broker = try BrokerProcess()
        let scale = try await broker.installClient("org.test.scale-only")
        let meter = try await broker.installClient("org.test.glucose-meter")
        try await broker.set(scale, "share", Self.bodyMass, allowed: true)
        try await broker.set(meter, "share", Self.bloodGlucose, allowed: true)
        let scaleWatch = try LiveApp(scale, ["watch-unit-changes", Self.bodyMass, "--count", "1"], adminSocket: broker.adminSocket)
        let meterWatch = try LiveApp(meter, ["watch-unit-changes", Self.bloodGlucose, "--count", "1"], adminSocket: broker.adminSocket)
        #expect(try await scaleWatch.waitForLine("ready"), "\(scaleWatch.lines)")
        #expect(try await meterWatch.waitForLine("ready"), "\(meterWatch.lines)")

        #expect(try await broker.healthctl(["units", "set", "bloodGlucose", "mg/dL"]).status == 0)
        let meterResult = await meterWatch.finish()
        #expect(Array(meterResult.lines.drop { $0 != "ready" }) == ["ready", "changed 1", "unit \(Self.bloodGlucose) mg/dL", "ok 1"],
                "\(meterResult)")
        // The scale's first notification must be for its own type's change, made afterwards: had
        // the glucose change reached it, `changed 1` would come first, with the old unit.
        #expect(try await broker.healthctl(["units", "set", "bodyMass", "g"]).status == 0)
        let scaleResult = await scaleWatch.finish()
        #expect(Array(scaleResult.lines.drop { $0 != "ready" }) == ["ready", "changed 1", "unit \(Self.bodyMass) g", "ok 1"],
                "\(scaleResult)")
    }

    /// The feed is one of the app's long-running queries (`BrokerLimits.longRunningQueriesPerApp`,
    /// 24): at the limit in feeds, the app gets no further long-running query of any kind.
    @Test func theFeedIsCountedAmongTheAppsLongRunningQueries() async throws {
        let broker = try BrokerProcess()
        let raw = try await RawApp.install("org.test.many-feeds", on: broker, grants: [("read", Self.bodyMass)])
        defer { raw.close() }
        let limit = 24
        // Each feed counts once healthd has subscribed it (its sequence 0).
        let running = StartedStreams()
        let feeds = (0..<limit).map { index in
            Task {
                for try await payload in raw.client.serverStream(HealthStoreMethod.watchUserPreferences.rawValue,
                                                                 UserPreferencesFeedRequest().wireBytes())
                    where try UserPreferencesUpdate(wire: payload).sequence == 0 {
                    running.insert(index)
                }
            }
        }
        defer { for feed in feeds { feed.cancel() } }
        let until = Date().addingTimeInterval(120)  // a hang guard; the loop ends when all are open
        while running.count < limit, Date() < until { try await Task.sleep(for: .milliseconds(20)) }
        try #require(running.count == limit, "\(running.count) of \(limit) feeds opened")
        do {
            for try await _ in raw.client.serverStream(HealthStoreMethod.observeChanges.rawValue,
                                                       TypePredicateSpec(typeIdentifier: Self.bodyMass).wireBytes()) {
                Issue.record("an observer was admitted beside \(limit) feeds")
                break
            }
        } catch let status as RPCStatus {
            #expect(status.code == .resourceExhausted, "\(status)")
            #expect(status.message.contains("at most \(limit) long-running queries per app"), "\(status)")
        }
    }
}
