import Foundation
import Testing

/// Temporary grants through the whole stack: the user grants with `healthctl grant --for/--window`,
/// a real sandboxed app queries through the SDK.
@Suite(.timeLimit(.minutes(10)), .serialized) struct TemporaryGrantEndToEndTests {
    let heartRate = "HKQuantityTypeIdentifierHeartRate"

    /// A broker with a writer that saved `values` at the given ages (seconds before now) and a
    /// reader that saved one sample 400 days ago. Values are multiples of 30 beats per minute,
    /// exact in the canonical count/s.
    func world(writerSamples: [(value: Int, age: TimeInterval)]) async throws -> (BrokerProcess, reader: String) {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.writer")
        let reader = try await broker.installClient("org.test.reader")
        for app in [writer, reader] { try await broker.set(app, "share", heartRate, allowed: true) }
        let now = Date().timeIntervalSince1970.rounded(.down)
        for (app, value, age) in writerSamples.map({ (writer, $0.value, $0.age) }) + [(reader, 90, 400 * 86_400)] {
            let time = Int(now - age)
            let saved = try await broker.runApp(app, ["save", heartRate, "\(value)", "count/min", "\(time)", "\(time)"])
            #expect(saved.okValue != nil, "\(saved)")
        }
        return (broker, reader)
    }

    @Test func anExpiredReadGrantHidesOtherSourcesAgainAsARevocationWould() async throws {
        let (broker, reader) = try await world(writerSamples: [(60, 3600)])
        // An hour, so that the query below runs while it lasts on any machine; the expiry is the
        // explicit step after it (the grant shortened to 5 s), not a race with the clock.
        let grant = try await broker.healthctl(["grant", reader, "read", heartRate, "--for", "1h"])
        #expect(grant.status == 0, "\(grant)")

        let during = try await broker.runApp(reader, ["query", heartRate, "--unit", "count/min"])
        #expect(during.samples.map(\.value) == [90, 60])

        let shortened = try await broker.healthctl(["grant", reader, "read", heartRate, "--for", "5s"])
        let expiry = Date().addingTimeInterval(5)  // healthctl computed its expiry before returning
        #expect(shortened.status == 0, "\(shortened)")
        #expect(shortened.stdout.contains("Expires in 5 seconds."), "\(shortened)")
        try await Task.sleep(for: .seconds(max(0, expiry.timeIntervalSinceNow)))
        let after = try await broker.runApp(reader, ["query", heartRate, "--unit", "count/min"])
        #expect(after.samples.map(\.value) == [90])
        let listing = try await broker.healthctl(["grants", reader])
        #expect(listing.stdout.contains("denied (expired "), "\(listing)")
    }

    @Test func anExpiredShareGrantRefusesSavesWithTheDeniedCode() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.expiring")
        let grant = try await broker.healthctl(["grant", app, "share", heartRate, "--for", "2s"])
        #expect(grant.status == 0, "\(grant)")
        try await Task.sleep(for: .seconds(2))
        let saved = try await broker.runApp(app, ["save", heartRate, "70", "count/min", "1700000000", "1700000000"])
        #expect(saved.errorCode == 4, "\(saved)")  // errorAuthorizationDenied, as after `healthctl revoke`
        #expect(try await broker.runApp(app, ["status", heartRate]).okValue == "1")  // sharingDenied
    }

    @Test func aWindowedReadGrantShowsRecentDataOfOthersAndAllOfItsOwn() async throws {
        let (broker, reader) = try await world(writerSamples: [(30, 40 * 86_400), (120, 10 * 86_400), (180, 60)])
        let grant = try await broker.healthctl(["grant", reader, "read", heartRate, "--window", "30d"])
        #expect(grant.status == 0, "\(grant)")
        let read = try await broker.runApp(reader, ["query", heartRate, "--unit", "count/min"])
        #expect(read.samples.map(\.value) == [90, 120, 180])
        // Limits count within the window: the newest two of what the app may see.
        let newest = try await broker.runApp(reader, ["query", heartRate, "--limit", "2", "--descending", "--unit", "count/min"])
        #expect(newest.samples.map(\.value) == [180, 120])
        let listing = try await broker.healthctl(["grants", reader])
        #expect(listing.stdout.contains("allowed, last 30 days"), "\(listing)")
    }
}
