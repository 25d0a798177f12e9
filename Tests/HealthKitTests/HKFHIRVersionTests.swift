import Foundation
import HealthKit
import Testing

/// `HKFHIRVersion` as Apple documents it (developer.apple.com/documentation/healthkit/hkfhirversion):
/// `init(fhirVersionString:)` parses major.minor.patch and throws otherwise; `fhirRelease` is
/// DSTU2 for 1.0.x, R4 for 4.0.x and unknown for anything else; `primaryDSTU2()` is 1.0.2 and
/// `primaryR4()` 4.0.1. Also the clinical type identifiers' raw values (…/hkclinicaltypeidentifier).
@Suite(.timeLimit(.minutes(10))) struct HKFHIRVersionTests {
    @Test func aVersionStringParsesIntoItsNumbersAndRelease() throws {
        let r4 = try HKFHIRVersion(fhirVersionString: "4.0.1")
        #expect(r4.majorVersion == 4 && r4.minorVersion == 0 && r4.patchVersion == 1)
        #expect(r4.fhirRelease == HKFHIRRelease.r4)
        #expect(r4.stringRepresentation == "4.0.1")
        #expect(try HKFHIRVersion(fhirVersionString: "1.0.2").fhirRelease == HKFHIRRelease.dstu2)
        #expect(try HKFHIRVersion(fhirVersionString: "3.0.2").fhirRelease == HKFHIRRelease.unknown)
        let dstu2 = try HKFHIRVersion(fhirVersionString: "1.0.2")
        #expect(HKFHIRVersion.primaryDSTU2().isEqual(dstu2))
        #expect(HKFHIRVersion.primaryR4().stringRepresentation == "4.0.1")
    }

    @Test(arguments: ["4.0", "4.0.1.1", "four", "", "4.0.-1"])
    func aStringThatIsNotAVersionThrows(text: String) {
        #expect(throws: HKError.self) { try HKFHIRVersion(fhirVersionString: text) }
    }

    @Test func clinicalTypesHaveHealthKitsIdentifiers() {
        #expect(HKClinicalTypeIdentifier.labResultRecord.rawValue == "HKClinicalTypeIdentifierLabResultRecord")
        #expect(HKClinicalTypeIdentifier.coverageRecord.rawValue == "HKClinicalTypeIdentifierCoverageRecord")
        #expect(HKObjectType.clinicalType(forIdentifier: .allergyRecord)?.identifier == "HKClinicalTypeIdentifierAllergyRecord")
        #expect(HKObjectType.clinicalType(forIdentifier: HKClinicalTypeIdentifier("HKClinicalTypeIdentifierNope")) == nil)
        #expect(HKFHIRResourceType.observation.rawValue == "Observation")
        #expect(HKFHIRRelease.dstu2.rawValue == "DSTU2")
    }
}
