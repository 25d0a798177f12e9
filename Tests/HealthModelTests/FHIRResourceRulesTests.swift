import Foundation
import Testing
@testable import HealthModel

/// What healthd stores as a clinical record (`FHIRResourceRules`), one dimension at a time from
/// a valid record: size at the limit and one past it, encoding, JSON shape, resourceType and id
/// against the record's, the version string. HKFHIRResourceType raw values:
/// developer.apple.com/documentation/healthkit/hkfhirresourcetype.
@Suite(.timeLimit(.minutes(10))) struct FHIRResourceRulesTests {
    static func record(_ json: String, type: String = "Observation", id: String = "lab-1", version: String = "4.0.1") -> ClinicalRecordValue {
        ClinicalRecordValue(displayName: "Hemoglobin A1c", resourceType: type, identifier: id, data: Data(json.utf8),
                            sourceURL: "https://fhir.example.org/Observation/lab-1", fhirVersion: version)
    }

    static let valid = #"{"resourceType":"Observation","id":"lab-1","code":{"text":"Hemoglobin A1c"}}"#

    func refusal(_ value: ClinicalRecordValue) -> String? {
        do {
            try FHIRResourceRules.check(value)
            return nil
        } catch {
            #expect(error.code == .errorInvalidArgument)
            return error.message
        }
    }

    @Test func aValidRecordPasses() {
        #expect(refusal(Self.record(Self.valid)) == nil)
    }

    /// Padded with spaces (still the same JSON) to exactly the limit, then one byte more.
    @Test func theSizeLimitHoldsAtTheLimitAndRefusesOnePast() {
        let padding = FHIRResourceRules.maxResourceBytes - Self.valid.utf8.count
        #expect(refusal(Self.record(Self.valid + String(repeating: " ", count: padding))) == nil)
        let message = refusal(Self.record(Self.valid + String(repeating: " ", count: padding + 1)))
        #expect(message?.contains("at most \(FHIRResourceRules.maxResourceBytes)") == true, "\(message ?? "")")
    }

    @Test func notUTF8IsRefused() {
        var value = Self.record(Self.valid)
        value.data = Data(Self.valid.utf8) + Data([0xFF, 0xFE])
        #expect(refusal(value)?.contains("not UTF-8") == true)
    }

    @Test(arguments: [#"{"resourceType":"Observation","id":"lab-1""#, "", "nul"])
    func textThatIsNotJSONIsRefused(json: String) {
        #expect(refusal(Self.record(json))?.contains("not valid JSON") == true)
    }

    @Test(arguments: [#"[{"resourceType":"Observation","id":"lab-1"}]"#, #""Observation""#, "42", "null"])
    func jsonThatIsNotAnObjectIsRefused(json: String) {
        #expect(refusal(Self.record(json))?.contains("not a JSON object") == true)
    }

    @Test func aResourceTypeHealthKitDoesNotKnowIsRefused() {
        let json = #"{"resourceType":"Patient","id":"lab-1"}"#
        #expect(refusal(Self.record(json, type: "Patient"))?.contains("not an HKFHIRResourceType") == true)
    }

    @Test func theJSONsResourceTypeMustBeTheRecords() {
        #expect(refusal(Self.record(Self.valid, type: "Condition"))?.contains("resourceType does not match") == true)
    }

    @Test(arguments: [#"{"resourceType":"Observation","id":"lab-2"}"#, #"{"resourceType":"Observation"}"#,
                      #"{"resourceType":"Observation","id":1}"#])
    func theJSONsIdMustBeTheRecordsIdentifier(json: String) {
        #expect(refusal(Self.record(json))?.contains("id does not match") == true)
    }

    @Test(arguments: ["4.0", "4.0.1.2", "4.a.1", "", "٤.0.1", "4..1"])
    func aVersionThatIsNotMajorMinorPatchIsRefused(version: String) {
        #expect(refusal(Self.record(Self.valid, version: version))?.contains("fhirVersion") == true)
    }

    @Test func releasesAreHealthKitsThree() {
        #expect(FHIRVersionNumber("1.0.2")?.release == "DSTU2")
        #expect(FHIRVersionNumber("4.0.1")?.release == "R4")
        #expect(FHIRVersionNumber("3.0.1")?.release == "Unknown")
        #expect(FHIRVersionNumber.primaryDSTU2.stringRepresentation == "1.0.2")
        #expect(FHIRVersionNumber.primaryR4.stringRepresentation == "4.0.1")
    }

    @Test func emptyAndOverlongFieldsAreRefusedNamingTheField() {
        var value = Self.record(Self.valid)
        value.displayName = ""
        #expect(refusal(value)?.contains("displayName is empty") == true)
        value = Self.record(Self.valid)
        value.sourceURL = String(repeating: "u", count: FHIRResourceRules.maxSourceURLBytes + 1)
        #expect(refusal(value)?.contains("sourceURL is longer") == true)
    }

    /// The name healthctl's import shows: a CodeableConcept's text, else its first coding's display.
    @Test func theDisplayNameComesFromTheUsualNamingFields() throws {
        let text = try FHIRResourceJSON(Data(Self.valid.utf8))
        #expect(text.displayName == "Hemoglobin A1c")
        let coding = try FHIRResourceJSON(Data(#"{"resourceType":"AllergyIntolerance","id":"a","substance":{"coding":[{"display":"Peanuts"}]}}"#.utf8))
        #expect(coding.displayName == "Peanuts")
        let none = try FHIRResourceJSON(Data(#"{"resourceType":"Coverage","id":"c"}"#.utf8))
        #expect(none.displayName == nil)
    }
}
