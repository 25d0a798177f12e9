import Foundation
import HealthModel
import Testing
import TestSupport

/// HealthKit's per-object read authorization end to end (developer.apple.com/documentation/
/// healthkit/hkhealthstore/requestperobjectreadauthorization(for:predicate:completion:) and
/// …/hkobjecttype/requiresperobjectauthorization(): "The user can then select the individual
/// samples that the app has permission to read"): a sandboxed app asks; its call waits until the
/// user answers with a real `healthctl object-requests --answer`, picking one of another app's
/// three prescriptions; the app then reads exactly that one; `healthctl object-grants` lists it
/// and revoking it hides it again at once.
@Suite(.serialized, .timeLimit(.minutes(10))) struct VisionPerObjectReadEndToEndTests {
    static let vision = HKVisionPrescriptionTypeIdentifier

    @Test func theAppReadsExactlyThePrescriptionTheUserPicked() async throws {
        let broker = try BrokerProcess()
        let saver = try await broker.installClient("org.test.vision-owner")
        try await broker.set(saver, "share", Self.vision, allowed: true)
        #expect(try await broker.runApp(saver, ["snippet", "vision-save"]).okValue == "saved")
        let reader = try await broker.installClient("org.test.vision-reader")
        #expect(try await broker.runApp(reader, ["snippet", "vision-visible"]).okValue == "0 ", "nothing before a grant")

        async let asked = broker.runApp(reader, ["snippet", "vision-per-object"])
        // Wait for the request to reach healthd (a hang guard, not a timing assertion).
        let listing = try await broker.pendingObjectRequests()
        #expect(listing.contains("org.test.vision-reader"), "\(listing)")
        let lines = listing.split(separator: "\n").map(String.init)
        let requestID = lines.first { $0.hasPrefix("Request ") }.flatMap { $0.dropFirst("Request ".count).split(separator: ":").first }
        let candidates = lines.filter { $0.hasPrefix("  ") && $0.contains(" (") }
        #expect(candidates.count == 3, "every matching prescription is offered: \(listing)")
        guard let requestID, let glasses = candidates.first(where: { $0.contains("R SPH -2.25 D") }),
              let uuid = glasses.split(separator: " ").first else {
            Issue.record("no request or glasses candidate: \(listing)")
            return
        }
        let answer = try await broker.healthctl(["object-requests", "--answer", String(requestID), "--allow", String(uuid)])
        #expect(answer.status == 0, "\(answer)")
        let result = try await asked
        #expect(result.okValue == "1 HKGlassesPrescription", "\(result)")

        let grants = try await broker.healthctl(["object-grants", reader])
        #expect(grants.stdout.contains(String(uuid)), "\(grants)")
        let revoke = try await broker.healthctl(["object-grants", reader, "--revoke-all"])
        #expect(revoke.status == 0, "\(revoke)")
        #expect(try await broker.runApp(reader, ["snippet", "vision-visible"]).okValue == "0 ", "revoked at once")
        // The saver, whose own they are, still sees all three.
        #expect(try await broker.runApp(saver, ["snippet", "vision-visible"]).okValue
                == "3 HKContactsPrescription,HKGlassesPrescription,HKVisionPrescription")
    }
}

extension VisionPerObjectReadEndToEndTests {
    /// The candidates are read from the store, which a locked store cannot give: the request fails
    /// with errorDatabaseInaccessible (6) as reads do (DESIGN.md §7.8), and no prompt is left behind.
    @Test func aRequestWhileTheStoreIsLockedFailsAsAReadDoes() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.vision-locked-reader")
        #expect(try await broker.healthctl(["lock"]).status == 0)
        let result = try await broker.runApp(reader, ["snippet", "vision-per-object"])
        #expect(result.errorCode == 6, "\(result)")
        // `object-requests` reads the candidates when the user lists them, so it needs the store
        // unlocked too; unlocked, nothing was left behind by the refused request.
        let unlock = try await broker.healthctl(["unlock"])
        #expect(unlock.status == 0, "\(unlock)")
        #expect(try await broker.healthctl(["object-requests"]).stdout.contains("No pending per-object requests."))
    }
}
