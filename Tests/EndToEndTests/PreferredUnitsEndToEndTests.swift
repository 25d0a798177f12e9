import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing

/// preferredUnits(for:) through the whole stack: locale defaults chosen by the broker, the
/// user's choices from healthctl, and the authorization rule.
@Suite(.timeLimit(.minutes(10)), .serialized) struct PreferredUnitsEndToEndTests {
    static let bodyMass = HKQuantityTypeIdentifier.bodyMass.rawValue
    static let bloodGlucose = HKQuantityTypeIdentifier.bloodGlucose.rawValue
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue

    @Test func theUsersChoiceWinsOverTheLocaleDefault() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.units")
        // Any decision counts as asked: read denied here.
        for type in [Self.bodyMass, Self.bloodGlucose, Self.heartRate] { try await broker.set(app, "read", type, allowed: false) }
        // The defaults of the system the app's locale uses (Foundation on Linux often reports
        // metric whatever LANG says; the broker's table per system is checked below).
        let defaults = try await broker.runApp(app, ["preferred-units", Self.bodyMass, Self.bloodGlucose, Self.heartRate])
        let system = try #require(defaults.lines.first?.split(separator: " ").last.map(String.init), "\(defaults)")
        let (glucose, mass) = [("metric", ("mmol<180.1558800000541>/L", "kg")), ("us", ("mg/dL", "lb")),
                               ("uk", ("mmol<180.1558800000541>/L", "st"))].first { $0.0 == system }!.1
        #expect(Array(defaults.lines.dropFirst()) == [
            "unit \(Self.bloodGlucose) \(glucose)", "unit \(Self.bodyMass) \(mass)", "unit \(Self.heartRate) count/min", "ok 3",
        ], "\(defaults)")

        let set = try await broker.healthctl(["units", "set", "bodyMass", "lb"])
        #expect(set.status == 0, "\(set)")
        let chosen = try await broker.runApp(app, ["preferred-units", Self.bodyMass])
        #expect(chosen.lines.dropFirst().first == "unit \(Self.bodyMass) lb", "\(chosen)")
        #expect(try await broker.healthctl(["units", "show"]).stdout.contains("Body Mass  lb"))

        let reset = try await broker.healthctl(["units", "reset", "bodyMass"])
        #expect(reset.status == 0, "\(reset)")
        #expect(try await broker.runApp(app, ["preferred-units", Self.bodyMass]).lines.dropFirst().first == "unit \(Self.bodyMass) \(mass)")
        let refused = try await broker.healthctl(["units", "set", "heartRate", "kg"])
        #expect(refused.status == 64 && refused.stderr.contains("'kg' cannot measure Heart Rate"), "\(refused)")
    }

    @Test func aTypeNeverAskedAboutIsNotDetermined() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.unasked")
        try await broker.set(app, "share", Self.bodyMass, allowed: true)
        let result = try await broker.runApp(app, ["preferred-units", Self.bodyMass, Self.heartRate])
        #expect(result.errorCode == 5, "\(result)")  // errorAuthorizationNotDetermined
        #expect(result.stdout.contains(Self.heartRate))
    }

    @Test func theBrokerPicksTheDefaultsOfTheSystemTheAppSends() async throws {
        let broker = try BrokerProcess()
        let raw = try await RawApp.install("org.test.locales", on: broker, grants: [("read", Self.bodyMass), ("read", Self.bloodGlucose)])
        defer { raw.client.close() }
        func units(_ system: String) async throws -> [String] {
            let request = PreferredUnitsRequest(typeIdentifiers: [Self.bodyMass, Self.bloodGlucose], measurementSystem: system)
            let answer = try PreferredUnitList(wire: try await raw.client.unary(HealthStoreMethod.preferredUnits.rawValue, request.wireBytes()))
            return answer.units.map(\.unit)
        }
        // Sorted by type: blood glucose, then body mass.
        #expect(try await units("us") == ["mg/dL", "lb"])
        #expect(try await units("uk") == ["mmol<180.1558800000541>/L", "st"])
        #expect(try await units("metric") == ["mmol<180.1558800000541>/L", "kg"])
        await #expect(throws: RPCStatus.self) { _ = try await units("imperial") }
    }
}
