import Foundation
import HealthModel
import Testing
import TestSupport

/// Red-team attacks on background delivery of last session's record kinds: a launch is a read
/// (it tells the app that something it may see changed), so it must follow the same choke point
/// as every query — clinical records only with the health-records entitlement, vision
/// prescriptions only when the app saved or was granted the object. Each attack has a control
/// launched for the same change, so a missing launch is the rule's doing, not a slow agent's.
@Suite(.serialized, .timeLimit(.minutes(10))) struct RecordKindBackgroundDeliveryEndToEndTests {
    static let allergy = HKClinicalTypeIdentifier.allergyRecord.rawValue
    static let vision = HKVisionPrescriptionTypeIdentifier
    static let backgroundDelivery = "com.apple.developer.healthkit.background-delivery"

    /// Installs the scripted app with background delivery, and with health-records when `records`.
    func install(_ broker: BrokerProcess, _ appID: String, records: Bool) async throws {
        var manifest: [String: Any] = [
            "id": appID, "displayName": "Test \(appID)", "executable": BrokerProcess.clientExecutable, "version": "1.0",
            "NSHealthShareUsageDescription": "reads for a test", "NSHealthUpdateUsageDescription": "writes for a test",
            "entitlements": [Self.backgroundDelivery],
        ]
        if records { manifest["com.apple.developer.healthkit.access"] = ["health-records"] }
        let path = broker.root + "/\(appID).json"
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
        let result = try await broker.healthctl(["apps", "install", path])
        #expect(result.status == 0, "\(result)")
    }

    func launchEntries(_ broker: BrokerProcess, _ appID: String) async throws -> Int {
        try await broker.healthctl(["log", "--app", appID, "--json"]).lines.count { $0.contains(#""action":"launch""#) }
    }

    /// Both apps hold a read grant the user made in the manager and registered background
    /// delivery of allergies; the user imports records. Only the entitled app is launched.
    @Test func importedClinicalRecordsLaunchOnlyTheEntitledApp() async throws {
        let broker = try BrokerProcess()
        let entitled = "org.test.bg-records", unentitled = "org.test.bg-records-unentitled"
        for (app, records) in [(entitled, true), (unentitled, false)] {
            try await install(broker, app, records: records)
            try await broker.set(app, "read", Self.allergy, allowed: true)
            #expect(try await broker.runApp(app, ["background-enable", Self.allergy]).okValue == "enabled")
        }
        let agent = try LaunchAgentProcess(broker: broker, backgroundTypes: [Self.allergy])
        #expect(try await broker.waitForLog("launch agent attached"))
        let export = try ClinicalExportFixture.write(in: broker.root + "/export")
        #expect(try await broker.healthctl(["import", export, "--characteristics", "no"]).status == 0)

        #expect(try await agent.waitForAppLine(entitled, "ok background"), "the control: \(agent.log)")
        #expect(agent.appLogLines(entitled).contains("background-update \(Self.allergy) 2"), "\(agent.appLog(entitled) ?? "")")
        try await Task.sleep(for: .milliseconds(500))
        #expect(agent.appLog(unentitled) == nil, "launched without the entitlement: \(agent.appLog(unentitled) ?? "")")
        #expect(try await launchEntries(broker, unentitled) == 0)
    }

    /// Another app's prescriptions, granted to nobody, never launch the reader; its own save
    /// does, and that launch's update sees only its own three.
    @Test func anotherAppsPrescriptionsNeverLaunchAnAppWithoutAnObjectGrant() async throws {
        let broker = try BrokerProcess()
        let owner = "org.test.bg-vision-owner", reader = "org.test.bg-vision-reader"
        for app in [owner, reader] {
            try await install(broker, app, records: false)
            try await broker.set(app, "share", Self.vision, allowed: true)
        }
        #expect(try await broker.runApp(reader, ["background-enable", Self.vision]).okValue == "enabled")
        let agent = try LaunchAgentProcess(broker: broker, backgroundTypes: [Self.vision])
        #expect(try await broker.waitForLog("launch agent attached"))
        #expect(try await broker.runApp(owner, ["snippet", "vision-save"]).okValue == "saved")
        #expect(try await broker.runApp(reader, ["snippet", "vision-save"]).okValue == "saved")

        #expect(try await agent.waitForAppLine(reader, "ok background"), "the control: \(agent.log)")
        let updates = agent.appLogLines(reader).filter { $0.hasPrefix("background-update") }
        #expect(updates.first == "background-update \(Self.vision) 3", "launched for the other app's save: \(updates)")
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await launchEntries(broker, reader) == 1)
    }
}
