import Foundation
import HealthModel
import Testing
import TestSupport

/// Clinical records (issue 15) through a real healthd: imported from an Apple Health export with
/// their FHIR JSON, read by a sandboxed app only with Apple's health-records entitlement and read
/// permission per type (developer.apple.com/documentation/healthkit/accessing-health-records),
/// never written by an app, and shown and exported back by healthctl.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ClinicalRecordEndToEndTests {
    static let allergy = HKClinicalTypeIdentifier.allergyRecord.rawValue
    static let labResult = HKClinicalTypeIdentifier.labResultRecord.rawValue

    func summaryLine(_ result: ProcessResult) -> String {
        result.stdout.split(separator: "\n").last.map(String.init) ?? ""
    }

    /// A broker holding the fixture's four records.
    func importedBroker() async throws -> BrokerProcess {
        let broker = try BrokerProcess()
        let export = try ClinicalExportFixture.write(in: broker.root + "/export")
        let imported = try await broker.healthctl(["import", export, "--characteristics", "no"])
        #expect(imported.status == 0, "\(imported)\n\(broker.log)")
        #expect(summaryLine(imported) == "4 records read; samples and routes: 4 imported, 0 already there, 0 refused.", "\(imported)")
        return broker
    }

    /// The entitled app with read permission sees both allergies (the first, R4, by name and JSON),
    /// the lab Observation and DiagnosticReport apart by FHIR resource type, and the allergy found
    /// again by source, type and id; the same app without the grants sees nothing, as if the store
    /// held no records.
    @Test func anEntitledAppReadsImportedRecordsOnlyWithReadPermission() async throws {
        let broker = try await importedBroker()
        let app = try await broker.installHealthRecordsClient("org.test.clinical-reader")
        let withoutGrants = try await broker.runApp(app, ["snippet", "clinical-records"])
        #expect(withoutGrants.okValue == "0 0 0 0 none", "\(withoutGrants)")
        for type in [Self.allergy, Self.labResult] {
            try await broker.set(app, "read", type, allowed: true)
        }
        let requested = try await broker.runApp(app, ["snippet", "clinical-request"])
        #expect(requested.okValue == "requested", "\(requested)")
        let result = try await broker.runApp(app, ["snippet", "clinical-records"])
        #expect(result.okValue == "2 1 1 1 Penicillin — ünïcode | AllergyIntolerance R4 true true", "\(result)\n\(broker.log)")
    }

    /// Without `com.apple.developer.healthkit.access: [health-records]`, HealthKit refuses a read
    /// request naming clinical types ("Authorization to read the following types is disallowed",
    /// as apps missing the entitlement report), and a grant the user made in the manager shows
    /// the app nothing: the records look absent.
    @Test func withoutTheEntitlementTheRequestIsRefusedAndRecordsLookAbsent() async throws {
        let broker = try await importedBroker()
        let app = try await broker.installClient("org.test.clinical-unentitled")
        let requested = try await broker.runApp(app, ["snippet", "clinical-request"], timeout: 20)
        #expect(requested.errorCode == HKError.Code.errorInvalidArgument.rawValue, "\(requested)")
        #expect(requested.stdout.contains("Authorization to read the following types is disallowed: "
                                          + "\(Self.allergy), \(Self.labResult)"), "\(requested)")
        #expect(try await broker.healthctl(["requests"]).stdout.contains("No pending requests"))
        for type in [Self.allergy, Self.labResult] {
            try await broker.set(app, "read", type, allowed: true)
        }
        let result = try await broker.runApp(app, ["snippet", "clinical-records"])
        #expect(result.okValue == "0 0 0 0 none", "\(result)")
        let query = try await broker.runApp(app, ["query", Self.allergy])
        #expect(query.okValue == "0", "\(query)")
    }

    /// Clinical records are read-only in HealthKit: a share request naming one fails with
    /// "Authorization to share the following types is disallowed: HKClinicalTypeIdentifier…"
    /// (github.com/EddyVerbruggen/HealthKit/issues/106) and nothing is asked — also for an
    /// entitled app, and healthctl cannot grant it either.
    @Test func aShareRequestForAClinicalTypeIsRefusedAsHealthKitRefusesIt() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installHealthRecordsClient("org.test.clinical-share")
        let result = try await broker.runApp(app, ["snippet", "clinical-share"], timeout: 20)
        #expect(result.errorCode == HKError.Code.errorInvalidArgument.rawValue, "\(result)")
        #expect(result.stdout.contains("Authorization to share the following types is disallowed: \(Self.allergy)"), "\(result)")
        #expect(try await broker.healthctl(["requests"]).stdout.contains("No pending requests"))
        let grant = try await broker.healthctl(["grant", app, "share", Self.allergy])
        #expect(grant.status != 0 && grant.stderr.contains("disallowed"), "\(grant)")
    }

    /// An entitled reader saving a record it fetched is refused by healthd (errorInvalidArgument
    /// naming the type): no grant makes a clinical type writable, whatever the SDK sends.
    @Test func anAppCannotSaveAClinicalRecordItRead() async throws {
        let broker = try await importedBroker()
        let app = try await broker.installHealthRecordsClient("org.test.clinical-resave")
        try await broker.set(app, "read", Self.allergy, allowed: true)
        let result = try await broker.runApp(app, ["snippet", "clinical-resave"])
        #expect(result.okValue == "\(HKError.Code.errorInvalidArgument.rawValue) true", "\(result)")
        let listing = try await broker.healthctl(["samples", Self.allergy, "--json"])
        #expect(listing.lines.count == 2, "nothing added: \(listing)")
    }

    /// A resource that is not JSON, and one whose id is not the element's identifier, are refused
    /// each naming its file; the good record beside them is imported.
    @Test func aMalformedResourceIsRefusedNamingItsFile() async throws {
        let broker = try BrokerProcess()
        let good = ClinicalExportFixture.resources[0]
        let notJSON = ClinicalExportFixture.Resource(type: Self.allergy, identifier: "broken", fhirVersion: "4.0.1",
                                                     file: "AllergyIntolerance-broken.json", json: #"{"resourceType": "AllergyIntolerance", "id": "broken""#)
        let wrongID = ClinicalExportFixture.Resource(type: Self.labResult, identifier: "lab-9", fhirVersion: "4.0.1",
                                                     file: "Observation-lab-9.json", json: #"{"resourceType":"Observation","id":"lab-8"}"#)
        let export = try ClinicalExportFixture.write(in: broker.root + "/export", resources: [good, notJSON, wrongID])
        let result = try await broker.healthctl(["import", export, "--characteristics", "no"])
        #expect(summaryLine(result) == "3 records read; samples and routes: 1 imported, 0 already there, 2 refused.", "\(result)")
        #expect(result.stdout.contains("clinical-records/AllergyIntolerance-broken.json: the FHIR resource is not valid JSON"), "\(result)")
        #expect(result.stdout.contains("clinical-records/Observation-lab-9.json: the FHIR resource's id does not match"), "\(result)")
    }

    /// healthctl lists a record by its name and FHIR resource, prints the resource byte for byte in
    /// --json, and `export` writes Apple's layout (ClinicalRecord elements, JSON files in
    /// clinical-records/) that imports into an empty store as the same records; importing the
    /// same file again adds nothing.
    @Test func healthctlShowsRecordsAndTheExportRoundTrips() async throws {
        let original = try await importedBroker()
        let listing = try await original.healthctl(["samples", Self.labResult])
        #expect(listing.stdout.contains("Hemoglobin A1c  Observation/lab-1, FHIR 4.0.1 (R4)"), "\(listing)")
        let json = try await original.healthctl(["samples", Self.allergy, "--json"])
        let resources = try json.lines.map { line -> String in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["clinicalRecord"] as? [String: Any])?["resource"] as? String ?? ""
        }
        #expect(Set(resources) == Set(ClinicalExportFixture.resources.prefix(2).map(\.json)), "\(json)")

        let zip = original.root + "/out/export.zip"
        try FileManager.default.createDirectory(atPath: original.root + "/out", withIntermediateDirectories: true)
        let exported = try await original.healthctl(["export", zip])
        #expect(exported.status == 0, "\(exported)\n\(original.log)")
        let copy = try BrokerProcess()
        let reimported = try await copy.healthctl(["import", zip, "--characteristics", "no"])
        #expect(summaryLine(reimported) == "4 records read; samples and routes: 4 imported, 0 already there, 0 refused.", "\(reimported)")
        for type in [Self.allergy, Self.labResult] {
            let before = try await original.healthctl(["samples", type, "--json"]).lines.map(Self.withoutUUID).sorted()
            let after = try await copy.healthctl(["samples", type, "--json"]).lines.map(Self.withoutUUID).sorted()
            #expect(before == after && before.count == 2, "\(type):\nbefore \(before)\nafter  \(after)")
        }
        let again = try await original.healthctl(["import", zip])
        #expect(summaryLine(again) == "4 records read; samples and routes: 0 imported, 4 already there, 0 refused.", "\(again)")
    }

    /// Twenty lab results of nearly 250 KiB each (5 MB, more than one 4 MiB frame holds): the
    /// import, an app's sample and anchored queries and healthctl's listing all carry every one,
    /// because answers holding clinical records are streamed in batches that fit a frame
    /// (`WireLimits.clinicalRecordsPerBatch`).
    @Test func largeRecordsTravelInBatchesThatFitAFrame() async throws {
        let broker = try BrokerProcess()
        let padding = String(repeating: "x", count: 250_000)
        let resources = (1...20).map { index in
            ClinicalExportFixture.Resource(type: Self.labResult, identifier: "big-\(index)", fhirVersion: "4.0.1",
                                           file: "Observation-big-\(index).json",
                                           json: #"{"resourceType":"Observation","id":"big-\#(index)","text":{"div":"\#(padding)"}}"#)
        }
        let export = try ClinicalExportFixture.write(in: broker.root + "/export", resources: resources)
        let imported = try await broker.healthctl(["import", export, "--characteristics", "no"])
        #expect(summaryLine(imported) == "20 records read; samples and routes: 20 imported, 0 already there, 0 refused.", "\(imported)")
        let app = try await broker.installHealthRecordsClient("org.test.clinical-large")
        try await broker.set(app, "read", Self.labResult, allowed: true)
        let query = try await broker.runApp(app, ["query", Self.labResult])
        #expect(query.okValue == "20", "\(query)\n\(broker.log)")
        let anchored = try await broker.runApp(app, ["anchored", Self.labResult])
        #expect(anchored.stdout.contains("delivery initial 20 0"), "\(anchored)")
        let listing = try await broker.healthctl(["samples", Self.labResult, "--json"])
        #expect(listing.lines.count == 20, "\(listing.stderr)")
    }

    static func withoutUUID(_ line: String) -> String {
        line.replacingOccurrences(of: #""uuid":"[0-9a-f-]+""#, with: "", options: .regularExpression)
    }
}
