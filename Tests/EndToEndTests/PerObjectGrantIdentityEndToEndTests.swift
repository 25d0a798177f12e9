import Foundation
import HealthModel
import Testing
import TestSupport

/// Red-team attacks on per-object read grants (vision prescriptions) by identity: a grant the
/// user gave one app must never open the object to another app, to the same id installed anew
/// after a removal, or to a background launch of an app that was never granted it.
@Suite(.serialized, .timeLimit(.minutes(10))) struct PerObjectGrantIdentityEndToEndTests {
    static let vision = HKVisionPrescriptionTypeIdentifier
    let owner = "org.test.vision-id-owner", granted = "org.test.vision-id-granted", other = "org.test.vision-id-other"

    /// The owner's three prescriptions, and `granted` given the glasses one through the real
    /// per-object flow (the app asks, `healthctl object-requests --answer` picks).
    func brokerWithOneGrant() async throws -> BrokerProcess {
        let broker = try BrokerProcess()
        _ = try await broker.installClient(owner)
        try await broker.set(owner, "share", Self.vision, allowed: true)
        #expect(try await broker.runApp(owner, ["snippet", "vision-save"]).okValue == "saved")
        for app in [granted, other] { _ = try await broker.installClient(app) }

        async let asked = broker.runApp(granted, ["snippet", "vision-per-object"])
        let listing = try await pendingRequest(broker)
        let lines = listing.split(separator: "\n").map(String.init)
        let requestID = lines.first { $0.hasPrefix("Request ") }.flatMap { $0.dropFirst("Request ".count).split(separator: ":").first }
        let glasses = lines.first { $0.hasPrefix("  ") && $0.contains("R SPH -2.25 D") }?.split(separator: " ").first
        guard let requestID, let glasses else {
            Issue.record("no request or glasses candidate: \(listing)")
            return broker
        }
        #expect(try await broker.healthctl(["object-requests", "--answer", String(requestID), "--allow", String(glasses)]).status == 0)
        #expect(try await asked.okValue == "1 HKGlassesPrescription")
        return broker
    }

    /// Polls `healthctl object-requests` until a request is listed (a hang guard, 30 s).
    func pendingRequest(_ broker: BrokerProcess) async throws -> String {
        try await broker.pendingObjectRequests()
    }

    @Test func anotherAppNeverReadsTheGrantedObject() async throws {
        let broker = try await brokerWithOneGrant()
        #expect(try await broker.runApp(granted, ["snippet", "vision-visible"]).okValue == "1 HKGlassesPrescription")
        #expect(try await broker.runApp(other, ["snippet", "vision-visible"]).okValue == "0 ")
    }

    /// Removing the app removes its grants; the same id installed again starts with none.
    /// Installing over the installed app (an update) keeps them, as an app update keeps
    /// HealthKit permissions.
    @Test func theSameIDInstalledAgainAfterARemovalStartsWithoutGrants() async throws {
        let broker = try await brokerWithOneGrant()
        _ = try await broker.installClient(granted)
        #expect(try await broker.runApp(granted, ["snippet", "vision-visible"]).okValue == "1 HKGlassesPrescription", "an update keeps it")

        let removed = try await broker.healthctl(["apps", "remove", granted, "--keep-data"])
        #expect(removed.status == 0, "\(removed)")
        _ = try await broker.installClient(granted)
        #expect(try await broker.runApp(granted, ["snippet", "vision-visible"]).okValue == "0 ", "a new installation")
        let grants = try await broker.healthctl(["object-grants", granted])
        #expect(grants.stdout.contains("\(granted) may read no individual objects."), "\(grants)")
    }

    /// Whether any prescription exists must not change what the request does: with none in the
    /// store the request is still shown and the app's call still waits for the user's answer —
    /// an answer at once would tell the app that nothing matched.
    @Test func aRequestMatchingNothingStillWaitsForTheUser() async throws {
        let broker = try BrokerProcess()
        _ = try await broker.installClient(other)
        async let asked = broker.runApp(other, ["snippet", "vision-per-object"])
        let listing = try await pendingRequest(broker)
        let requestID = listing.split(separator: "\n").first { $0.hasPrefix("Request ") }
            .flatMap { $0.dropFirst("Request ".count).split(separator: ":").first }
        guard let requestID else {
            Issue.record("the request was not shown: \(listing)")
            return
        }
        #expect(listing.contains(other), "\(listing)")
        #expect(try await broker.healthctl(["object-requests", "--answer", String(requestID)]).status == 0)
        #expect(try await asked.okValue == "0 ")
    }
}
