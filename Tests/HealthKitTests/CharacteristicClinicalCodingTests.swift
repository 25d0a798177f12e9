import Foundation
import Testing
@testable import HealthKit

/// Apple's characteristic wrappers (`HKBiologicalSexObject`, `HKBloodTypeObject`,
/// `HKFitzpatrickSkinTypeObject`, `HKWheelchairUseObject`, `HKActivityMoveModeObject`) and the
/// clinical values `HKFHIRVersion` and `HKFHIRResource` are `NSObject`s conforming to
/// `NSSecureCoding` (developer.apple.com, "Conforms To"). Each survives
/// `NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding: true)` /
/// `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)`, and a tampered archive — a field missing,
/// of the wrong kind, or out of range — decodes as nil without trapping. Issue 15, item 4.
@Suite(.timeLimit(.minutes(10))) struct CharacteristicClinicalCodingTests {
    // MARK: Characteristics

    @Test func everyCharacteristicValueSurvivesAnArchive() throws {
        for value in HKBiologicalSex.allCases {
            let object = HKBiologicalSexObject(value)
            let restored = try SecureArchive.roundTrip(object)
            #expect(restored.biologicalSex == value && restored == object && restored.hash == object.hash)
        }
        for value in HKBloodType.allCases { #expect(try SecureArchive.roundTrip(HKBloodTypeObject(value)).bloodType == value) }
        for value in HKFitzpatrickSkinType.allCases {
            #expect(try SecureArchive.roundTrip(HKFitzpatrickSkinTypeObject(value)).skinType == value)
        }
        for value in HKWheelchairUse.allCases { #expect(try SecureArchive.roundTrip(HKWheelchairUseObject(value)).wheelchairUse == value) }
        for value in HKActivityMoveMode.allCases {
            #expect(try SecureArchive.roundTrip(HKActivityMoveModeObject(value)).activityMoveMode == value)
        }
        #expect(HKBloodTypeObject(.aPositive) != HKBloodTypeObject(.aNegative))
    }

    /// One field, each way it can be wrong: missing, a string, a raw value no case has, a
    /// fraction, a number no Int holds (which a plain `intValue` would silently truncate or convert).
    static var badRawValues: [NSObject?] {
        [nil, NSString(string: "1"), NSNumber(value: 999), NSNumber(value: -1),
         NSNumber(value: 1.5), NSNumber(value: 1e300), NSNumber(value: Double.nan)]
    }

    @Test func aCharacteristicArchiveWithABadValueIsNil() throws {
        for bad in Self.badRawValues { try expectRefused(bad) }
    }

    private func expectRefused(_ bad: NSObject?) throws {
        #expect(try SecureArchive.tampered(HKBiologicalSexObject(.female), "biologicalSex", bad) == nil)
        #expect(try SecureArchive.tampered(HKBloodTypeObject(.oNegative), "bloodType", bad) == nil)
        #expect(try SecureArchive.tampered(HKFitzpatrickSkinTypeObject(.I), "skinType", bad) == nil)
        #expect(try SecureArchive.tampered(HKWheelchairUseObject(.yes), "wheelchairUse", bad) == nil)
        #expect(try SecureArchive.tampered(HKActivityMoveModeObject(.appleMoveTime), "activityMoveMode", bad) == nil)
    }

    @Test func anUntamperedCharacteristicArchiveDecodes() throws {
        // The control for the test above: the same path with the field left as written.
        #expect(try SecureArchive.tampered(HKBloodTypeObject(.oNegative), "bloodType", NSNumber(value: HKBloodType.oNegative.rawValue))?
            .bloodType == .oNegative)
    }

    // MARK: FHIR

    @Test(arguments: ["1.0.2", "4.0.1", "0.0.0", "10.20.300"]) func aFHIRVersionSurvivesAnArchive(_ text: String) throws {
        let version = try HKFHIRVersion(fhirVersionString: text)
        let restored = try SecureArchive.roundTrip(version)
        #expect(restored == version && restored.stringRepresentation == text && restored.fhirRelease == version.fhirRelease)
    }

    @Test func aFHIRVersionArchiveWithoutAVersionIsNil() throws {
        for bad in [nil, NSString(string: "4.0"), NSString(string: "R4"), NSString(string: ""), NSNumber(value: 4)] as [NSObject?] {
            #expect(try SecureArchive.tampered(HKFHIRVersion.primaryR4(), "fhirVersion", bad) == nil, "\(String(describing: bad))")
        }
    }

    private static let json = Data(#"{"resourceType":"AllergyIntolerance","id":"a-1","code":{"text":"Penicillin"}}"#.utf8)

    private static func resource(sourceURL: String? = "https://fhir.example.org/AllergyIntolerance/a-1") -> HKFHIRResource {
        HKFHIRResource(ClinicalRecordValue(displayName: "Penicillin", resourceType: "AllergyIntolerance", identifier: "a-1",
                                           data: json, sourceURL: sourceURL, fhirVersion: "1.0.2"))
    }

    @Test(arguments: [true, false]) func aFHIRResourceSurvivesAnArchiveByteForByte(_ withURL: Bool) throws {
        let resource = Self.resource(sourceURL: withURL ? "https://fhir.example.org/AllergyIntolerance/a-1" : nil)
        let restored = try SecureArchive.roundTrip(resource)
        #expect(restored.resourceType == .allergyIntolerance && restored.identifier == "a-1" && restored.data == Self.json)
        #expect(restored.sourceURL == resource.sourceURL && restored.fhirVersion == HKFHIRVersion.primaryDSTU2())
    }

    /// Each field replaced by something the rules healthd stores records under refuse.
    @Test func aFHIRResourceArchiveTheStoreWouldRefuseIsNil() throws {
        let resource = Self.resource()
        let cases: [(String, NSObject?)] = [
            ("resourceType", NSString(string: "Observation")),  // the JSON says AllergyIntolerance
            ("resourceType", NSString(string: "NotAResource")),
            ("resourceType", nil),
            ("identifier", NSString(string: "a-2")),  // the JSON's id is a-1
            ("identifier", NSData()),
            ("data", NSString(string: "{}")),
            ("data", Data("not json".utf8) as NSData),
            ("data", Data(repeating: 0x20, count: FHIRResourceRules.maxResourceBytes + 1) as NSData),
            ("data", nil),
            ("sourceURL", NSString(string: String(repeating: "u", count: FHIRResourceRules.maxSourceURLBytes + 1))),
            ("sourceURL", NSNumber(value: 1)),
            ("fhirVersion", NSString(string: "four")),
            ("fhirVersion", nil),
        ]
        for (key, bad) in cases {
            #expect(try SecureArchive.tampered(resource, key, bad) == nil, "\(key) = \(String(describing: bad))")
        }
        #expect(try SecureArchive.tampered(resource, "sourceURL", nil)?.sourceURL == nil)
    }
}
