import Foundation
import HealthModel
import Testing
import TestSupport

/// Medications (iOS 26) end to end: the user enters medications and logs doses with a real
/// `healthctl medications`, a sandboxed app asks to read them per object
/// (developer.apple.com/documentation/healthkit/hkhealthstore/requestperobjectreadauthorization(for:predicate:completion:)
/// with `HKObjectType.userAnnotatedMedicationType()`), the user allows one of the two; the app
/// then reads exactly that medication (HKUserAnnotatedMedicationQueryDescriptor) and its dose
/// events (HKSampleQueryDescriptor with predicateForMedicationDoseEvent…), never the other's
/// (WWDC25 "Meet the HealthKit Medications API": authorizing a medication authorizes its dose
/// events). Archiving shows at once; revoking hides both again. Apps cannot share either type.
@Suite(.serialized, .timeLimit(.minutes(10))) struct MedicationsEndToEndTests {
    /// The user's two medications, each with a dose: a scheduled one taken, an as-needed one skipped.
    static func enterMedications(_ broker: BrokerProcess) async throws {
        for command in [
            ["medications", "add", "Ibuprofen 200 mg", "--form", "tablet", "--rxnorm", "310965", "--nickname", "Pain", "--scheduled"],
            ["medications", "add", "Vitamin D", "--form", "capsule", "--concept", "vitamin-d"],
            ["medications", "log-dose", "ibuprofen-200-mg", "--status", "taken", "--dose", "1", "--unit", "count",
             "--scheduled-at", "2024-05-01T08:00Z", "--scheduled-dose", "1", "--at", "2024-05-01T08:05Z"],
            ["medications", "log-dose", "vitamin-d", "--status", "skipped", "--at", "2024-05-01T09:00Z"],
        ] {
            let result = try await broker.healthctl(command)
            #expect(result.status == 0, "\(command): \(result)")
        }
    }

    @Test func theAppReadsExactlyTheMedicationTheUserAllowedAndItsDoses() async throws {
        let broker = try BrokerProcess()
        try await Self.enterMedications(broker)
        let list = try await broker.healthctl(["medications", "list"])
        #expect(list.stdout.contains("ibuprofen-200-mg  Pain (Ibuprofen 200 mg)"), "\(list)")
        #expect(list.stdout.contains("vitamin-d  Vitamin D"), "\(list)")
        // Dose events are samples the user browses like any other.
        let doses = try await broker.healthctl(["samples", "medicationDoseEvent"])
        #expect(doses.stdout.contains("taken") && doses.stdout.contains("skipped"), "\(doses)")

        let reader = try await broker.installClient("org.test.medication-reader")
        #expect(try await broker.runApp(reader, ["snippet", "medications-visible"]).okValue == "0  doses 0 taken 0", "nothing before a grant")

        async let asked = broker.runApp(reader, ["snippet", "medications-per-object"])
        let listing = try await broker.pendingObjectRequests()
        let lines = listing.split(separator: "\n").map(String.init)
        let requestID = lines.first { $0.hasPrefix("Request ") }.flatMap { $0.dropFirst("Request ".count).split(separator: ":").first }
        let candidates = lines.filter { $0.hasPrefix("  ") }
        #expect(candidates.count == 2, "both medications are offered: \(listing)")
        guard let requestID, let ibuprofen = candidates.first(where: { $0.contains("Ibuprofen") }),
              let uuid = ibuprofen.split(separator: " ").first else {
            Issue.record("no request or ibuprofen candidate: \(listing)")
            return
        }
        let answer = try await broker.healthctl(["object-requests", "--answer", String(requestID), "--allow", String(uuid)])
        #expect(answer.status == 0, "\(answer)")
        #expect(try await asked.okValue == "1 Pain|tablet|false|true|310965|taken doses 1 taken 1")
        #expect(try await broker.runApp(reader, ["snippet", "medication-scheduled-dose"]).okValue == "schedule taken 1.0 1.0 count true true")

        // A dose logged later for the allowed medication is readable at once; the other's never.
        #expect(try await broker.healthctl(["medications", "log-dose", "ibuprofen-200-mg", "--status", "skipped"]).status == 0)
        #expect(try await broker.healthctl(["medications", "log-dose", "vitamin-d", "--status", "taken"]).status == 0)
        #expect(try await broker.runApp(reader, ["snippet", "medications-visible"]).okValue == "1 Pain|tablet|false|true|310965|skipped doses 2 taken 1")

        #expect(try await broker.healthctl(["medications", "archive", "ibuprofen-200-mg"]).status == 0)
        #expect(try await broker.runApp(reader, ["snippet", "medications-visible"]).okValue == "1 Pain|tablet|true|true|310965|skipped doses 2 taken 1")

        #expect(try await broker.healthctl(["object-grants", reader, "--revoke-all"]).status == 0)
        #expect(try await broker.runApp(reader, ["snippet", "medications-visible"]).okValue == "0  doses 0 taken 0", "revoked at once")

        // The access log records the user's entries and the archive.
        let log = try await broker.healthctl(["log", "--json"])
        let entries = log.stdout.split(separator: "\n").map(String.init)
        #expect(entries.contains { $0.contains("\"HKDataTypeIdentifierUserAnnotatedMedicationConcept\"") && $0.contains("entered by the user") },
                "\(log)")
        #expect(entries.contains { $0.contains("\"HKMedicationDoseEventTypeIdentifierMedicationDoseEvent\"") && $0.contains("entered by the user") },
                "\(log)")
        #expect(entries.contains { $0.contains("medication archived by the user") }, "\(log)")
    }

    /// Apple reports the deletions of samples an app can read to its anchored queries
    /// (developer.apple.com/documentation/healthkit/hkanchoredobjectquerydescriptor/result/deletedobjects:
    /// "An array of objects deleted from the HealthKit store"). The user deletes every dose event
    /// with a real `healthctl delete --type`: the app allowed Ibuprofen learns of that dose's
    /// deletion — continuing from its anchor and from the start — and never of Vitamin D's, which
    /// it could not read.
    @Test func theUsersDeletionOfADoseReachesTheAppsAllowedItsMedicationOnly() async throws {
        let broker = try BrokerProcess()
        try await Self.enterMedications(broker)
        let reader = try await broker.installClient("org.test.medication-deletions")
        let files = try makeAppFilesDirectory(under: broker.root)
        let dose = HKMedicationDoseEventTypeIdentifierMedicationDoseEvent
        async let asked = broker.runApp(reader, ["snippet", "medications-per-object"])
        let listing = try await broker.pendingObjectRequests()
        let lines = listing.split(separator: "\n").map(String.init)
        guard let requestID = lines.first(where: { $0.hasPrefix("Request ") }).flatMap({ $0.dropFirst("Request ".count).split(separator: ":").first }),
              let uuid = lines.first(where: { $0.hasPrefix("  ") && $0.contains("Ibuprofen") })?.split(separator: " ").first else {
            Issue.record("no request or ibuprofen candidate: \(listing)")
            return
        }
        #expect(try await broker.healthctl(["object-requests", "--answer", String(requestID), "--allow", String(uuid)]).status == 0)
        #expect(try await asked.okValue == "1 Pain|tablet|false|true|310965|taken doses 1 taken 1")

        let anchor = files + "/anchor"
        let before = try await broker.runApp(reader, ["anchored", dose, "--anchor-file", anchor, "--archived"], writable: files)
        let seen = try #require(before.lines.first { $0.hasPrefix("added ") }?.split(separator: " ").dropFirst().first.map(String.init))
        #expect(before.anchoredDeliveries.map(\.added.count) == [1], "\(before)")

        let deletion = try await broker.healthctl(["delete", "--type", "medicationDoseEvent", "--yes"])
        #expect(deletion.status == 0, "\(deletion)")
        let after = try await broker.runApp(reader, ["anchored", dose, "--anchor-file", anchor, "--archived"], writable: files)
        #expect(after.anchoredDeliveries.map { $0.deletedUUIDs.map { $0.lowercased() } } == [[seen.lowercased()]], "\(after)")
        #expect(after.anchoredDeliveries.map(\.added) == [[]], "\(after)")
        let fresh = try await broker.runApp(reader, ["anchored", dose, "--anchor-file", files + "/fresh", "--archived"], writable: files)
        #expect(fresh.anchoredDeliveries.map { $0.deletedUUIDs.map { $0.lowercased() } } == [[seen.lowercased()]], "\(fresh)")
    }

    /// Read-only for apps: sharing the dose type, or reading either type type-wide, fails with
    /// errorInvalidArgument (3) before any prompt (a Set<HKSampleType> cannot hold the medication
    /// type, an HKObjectType as Apple's).
    @Test func appsCannotAskToWriteThem() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.medication-writer")
        #expect(try await broker.runApp(app, ["snippet", "medications-refused"]).okValue == "3:3:3")
        #expect(try await broker.healthctl(["requests"]).stdout.contains("org.test.medication-writer") == false)
    }

    /// healthctl refuses what the validator refuses, naming the rule, and healthd refuses a dose
    /// for a medication the user does not track.
    @Test func healthctlRefusesInvalidEntries() async throws {
        let broker = try BrokerProcess()
        for command in [
            ["medications", "add", "", "--form", "tablet"],
            ["medications", "add", "Aspirin", "--form", "pill"],
            ["medications", "log-dose", "x", "--status", "eaten"],
            ["medications", "log-dose", "x", "--dose", "nan"],
            ["medications", "log-dose", "x", "--dose", "-1"],
            ["medications", "log-dose", "x", "--dose", "1e308"],
            ["medications", "log-dose", "x", "--scheduled-at", "2024-05-01T08:00Z"],
            ["medications", "log-dose", "x", "--unit", "furlongs"],
        ] {
            let result = try await broker.healthctl(command)
            #expect(result.status != 0, "\(command) was accepted: \(result)")
        }
        let unknown = try await broker.healthctl(["medications", "log-dose", "never-added", "--status", "taken"])
        #expect(unknown.status != 0 && unknown.stderr.contains("tracked medication"), "\(unknown)")
        try await Self.enterMedications(broker)
        let twice = try await broker.healthctl(["medications", "add", "Vitamin D", "--form", "capsule", "--concept", "vitamin-d"])
        #expect(twice.status != 0 && twice.stderr.contains("already tracked"), "\(twice)")
    }
}
