import Foundation
import HealthModel
import Testing
import TestSupport

/// Vision prescriptions (iOS 16) through a real healthd, its encrypted store and sandboxed apps:
/// Apple's snippets compile unchanged and behave as documented (developer.apple.com/documentation/
/// healthkit/hkvisionprism, …/hkglassesprescription, …/hkcontactsprescription,
/// …/hkvisionprescription), an invalid lens is refused on save, a type-wide read request is
/// refused as HealthKit refuses it (…/hkobjecttype/requiresperobjectauthorization()), another
/// app sees no prescription it was not granted, saves while locked are journaled, and healthctl
/// lists and exports them.
@Suite(.serialized, .timeLimit(.minutes(10))) struct VisionPrescriptionEndToEndTests {
    static let vision = HKVisionPrescriptionTypeIdentifier

    /// The right eye's prism (0.25 pD at 15°, right eye) has an upward vertical component and a
    /// base-in horizontal one; the contacts' 1.42 cm diameter comes back as 14.2 mm.
    static let expectedRead = "ok 3 -2.25 0.25 15.0 up in Acme Daily 14.2 HKVisionPrescription glasses true"

    @Test func applesSnippetsSaveAndReadBackEveryPrescriptionKind() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.vision-snippet")
        try await broker.set(app, "share", Self.vision, allowed: true)
        let result = try await broker.runApp(app, ["snippet", "vision"])
        #expect(result.stdout.contains(Self.expectedRead), "\(result)")
    }

    @Test func aLensInTheWrongUnitOrOutOfRangeIsRefusedOnSave() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.vision-refused")
        try await broker.set(app, "share", Self.vision, allowed: true)
        let result = try await broker.runApp(app, ["snippet", "vision-refused"])
        #expect(result.okValue == "3:true 3:true", "\(result)")
        let listing = try await broker.healthctl(["samples", Self.vision, "--json"])
        #expect(!listing.stdout.contains(Self.vision), "nothing was stored: \(listing)")
    }

    /// HealthKit refuses the type in a type-wide read set (the SDK, before sending), and healthd's
    /// one check (`ValidatedAuthorizationRequest.checkReadable`) refuses it to the manager's grant
    /// edit too: no type-wide read grant for it can exist.
    @Test func aTypeWideReadOfVisionPrescriptionsIsRefusedEverywhere() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.vision-read-request")
        let sdk = try await broker.runApp(app, ["snippet", "vision-read-request"])
        #expect(sdk.okValue == "true 3 Authorization to read the following types is disallowed: HKVisionPrescriptionTypeIdentifier",
                "\(sdk)")
        let grant = try await broker.healthctl(["grant", app, "read", Self.vision])
        #expect(grant.status != 0 && grant.stderr.contains("Authorization to read the following types is disallowed"), "\(grant)")
    }

    /// An app sees another app's prescription only through a per-object grant; a type-wide grant
    /// does not exist. Without one, a reader and a stranger both count 0 while the saver counts 3.
    @Test func anotherAppSeesNoPrescriptionItWasNotGranted() async throws {
        let broker = try BrokerProcess()
        let saver = try await broker.installClient("org.test.vision-saver")
        try await broker.set(saver, "share", Self.vision, allowed: true)
        #expect(try await broker.runApp(saver, ["snippet", "vision-save"]).okValue == "saved")
        let other = try await broker.installClient("org.test.vision-other")
        try await broker.set(other, "share", Self.vision, allowed: true)
        var counts: [String] = []
        for app in [saver, other] {
            let query = try await broker.runApp(app, ["query", Self.vision])
            counts.append(query.okValue ?? "\(query)")
        }
        #expect(counts == ["3", "0"], "\(counts)")
    }

    @Test func prescriptionsSavedWhileLockedArriveWholeAtUnlock() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.vision-locked")
        try await broker.set(app, "share", Self.vision, allowed: true)
        #expect(try await broker.healthctl(["lock"]).status == 0)
        let saved = try await broker.runApp(app, ["snippet", "vision-save"])
        #expect(saved.okValue == "saved", "\(saved)")
        let unlock = try await broker.healthctl(["unlock"])
        #expect(unlock.status == 0 && unlock.stdout.contains("merged"), "the saves were journaled: \(unlock)")
        let read = try await broker.runApp(app, ["snippet", "vision-read"])
        #expect(read.stdout.contains(Self.expectedRead), "\(read)")
    }

    @Test func healthctlListsAndExportsThePrescriptions() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.vision-display")
        try await broker.set(app, "share", Self.vision, allowed: true)
        #expect(try await broker.runApp(app, ["snippet", "vision-save"]).okValue == "saved")

        let listing = try await broker.healthctl(["samples", Self.vision])
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.stdout.contains("R SPH -2.25 D CYL -0.5 D AX 90 deg ADD 1.5 D VD 12 mm PRISM 0.25 pD at 15 deg PD far 32 mm PD near 30 mm; L SPH -2 D"),
                "\(listing)")
        #expect(listing.stdout.contains("L SPH -1.75 D BC 8.6 mm DIA 14.2 mm; brand Acme Daily"), "\(listing)")

        let json = try await broker.healthctl(["samples", Self.vision, "--json"])
        #expect(json.stdout.contains(#""brand":"Acme Daily""#) && json.stdout.contains(#""prescriptionType":"contacts""#), "\(json)")

        let folder = broker.root + "/csv"
        let csv = try await broker.healthctl(["export", folder, "--format", "csv", "--types", Self.vision])
        #expect(csv.status == 0, "\(csv)")
        let text = try String(contentsOfFile: folder + "/VisionPrescription.csv", encoding: .utf8)
        #expect(text.contains("brand Acme Daily") && text.contains("PRISM 0.25 pD at 15 deg"), "\(text)")
    }
}
