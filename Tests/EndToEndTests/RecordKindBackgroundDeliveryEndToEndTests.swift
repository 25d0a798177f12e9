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
    /// A per-object grant is a read the app could not make before, like a save it may see: the
    /// user allowing another app's glasses prescription launches the grantee (registered for
    /// prescriptions, not running), whose launch update then counts the one granted object; a
    /// bystander registered the same way, granted nothing, is not launched until its own save.
    /// Apple: background delivery wakes the app when "new samples of the specified type are
    /// saved to the store" (developer.apple.com/documentation/healthkit/hkhealthstore/
    /// enablebackgrounddelivery(for:frequency:withcompletion:)); a granted object is new to the
    /// grantee's feed at its grant (PerObjectGrantFeedEndToEndTests), and only to the grantee's.
    /// The grant touches no `objects` row, so no commit wakes the registration: the
    /// grants-changed wake-up (`PerObjectReadService.answer`) must.
    @Test func aPerObjectGrantLaunchesTheGranteeOnly() async throws {
        let broker = try BrokerProcess()
        let owner = "org.test.bg-grant-owner", reader = "org.test.bg-grant-reader", bystander = "org.test.bg-grant-bystander"
        for app in [owner, reader, bystander] {
            try await install(broker, app, records: false)
            try await broker.set(app, "share", Self.vision, allowed: true)
        }
        #expect(try await broker.runApp(owner, ["snippet", "vision-save"]).okValue == "saved")
        for app in [reader, bystander] {
            #expect(try await broker.runApp(app, ["background-enable", Self.vision]).okValue == "enabled")
        }
        let agent = try LaunchAgentProcess(broker: broker, backgroundTypes: [Self.vision])
        #expect(try await broker.waitForLog("launch agent attached"))

        _ = try #require(try await PerObjectGrantFeedEndToEndTests.grantGlasses(broker, saver: owner, reader: reader))
        // A hang guard only: without a wake-up at the grant no launch ever comes.
        #expect(try await agent.waitForAppLine(reader, "ok background"), "the grant launched nobody: \(agent.log)")
        let updates = agent.appLogLines(reader).filter { $0.hasPrefix("background-update") }
        #expect(updates == ["background-update \(Self.vision) 1"], "the granted prescription alone: \(updates)")
        #expect(try await launchEntries(broker, reader) == 1)
        // The bystander: nothing before its own save (a launch for the grant would have come
        // with the reader's, and would count no prescription); its own save launches it.
        #expect(agent.appLog(bystander) == nil, "launched for another app's grant: \(agent.appLog(bystander) ?? "")")
        #expect(try await broker.runApp(bystander, ["snippet", "vision-save"]).okValue == "saved")
        #expect(try await agent.waitForAppLine(bystander, "ok background"), "the control: \(agent.log)")
        let bystanderUpdates = agent.appLogLines(bystander).filter { $0.hasPrefix("background-update") }
        #expect(bystanderUpdates == ["background-update \(Self.vision) 3"], "its own three only: \(bystanderUpdates)")
        #expect(try await launchEntries(broker, bystander) == 1)
    }
    /// A launch owed for a grant is withdrawn when the user revokes the grant before it is sent
    /// (DESIGN.md §7.6): two readers are granted the same prescription while no agent is
    /// attached, one of them then loses it (`healthctl object-grants --revoke`); when the agent
    /// attaches, only the one still granted is launched — the control, launched for the same
    /// owed change at the same moment, so the other's missing launch is the revocation's doing.
    @Test func aLaunchOwedForAGrantIsWithdrawnWhenTheGrantIsRevoked() async throws {
        let broker = try BrokerProcess()
        let owner = "org.test.bg-grant-owner", kept = "org.test.bg-grant-kept", revoked = "org.test.bg-grant-revoked"
        for app in [owner, kept, revoked] {
            try await install(broker, app, records: false)
            try await broker.set(app, "share", Self.vision, allowed: true)
        }
        #expect(try await broker.runApp(owner, ["snippet", "vision-save"]).okValue == "saved")
        for app in [kept, revoked] {
            #expect(try await broker.runApp(app, ["background-enable", Self.vision]).okValue == "enabled")
            _ = try #require(try await PerObjectGrantFeedEndToEndTests.grantGlasses(broker, saver: owner, reader: app))
        }
        #expect(try await broker.healthctl(["object-grants", revoked, "--revoke-all"]).status == 0)

        let agent = try LaunchAgentProcess(broker: broker, backgroundTypes: [Self.vision])
        #expect(try await broker.waitForLog("launch agent attached"))
        #expect(try await agent.waitForAppLine(kept, "ok background"), "the control: \(agent.log)")
        #expect(agent.appLogLines(kept).filter { $0.hasPrefix("background-update") } == ["background-update \(Self.vision) 1"])
        try await Task.sleep(for: .milliseconds(500))
        #expect(agent.appLog(revoked) == nil, "launched for a revoked grant: \(agent.appLog(revoked) ?? "")")
        #expect(try await launchEntries(broker, revoked) == 0)
    }
}
