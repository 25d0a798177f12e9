import Foundation
import Testing
@testable import HealthKit

/// The medication types' places in the class tree, as Apple's SDK puts them (iOS 26):
/// `HKUserAnnotatedMedicationType` "Inherits From HKObjectType"
/// (developer.apple.com/documentation/healthkit/hkuserannotatedmedicationtype) — it is no sample
/// type — while `HKMedicationDoseEventType` "Inherits From HKSampleType"
/// (developer.apple.com/documentation/healthkit/hkmedicationdoseeventtype); both conform to
/// NSSecureCoding. Code that switches on a type's class, or filters a list of types for sample
/// types, must take the same branch as on Apple's. Issue 15, row 260.
@Suite(.timeLimit(.minutes(10))) struct MedicationTypeClassTests {
    /// The way ported code asks: through `HKObjectType`, as a mixed list of types holds them.
    static func kind(_ type: HKObjectType) -> String {
        switch type {
        case is HKSampleType: "sample"
        case is HKUserAnnotatedMedicationType: "medication"
        default: "other"
        }
    }

    @Test func theMedicationTypeIsAnObjectTypeAndTheDoseTypeASampleType() {
        let medication: HKObjectType = HKObjectType.userAnnotatedMedicationType()
        let dose: HKObjectType = HKObjectType.medicationDoseEventType()
        #expect(Self.kind(medication) == "medication")
        #expect(!(medication is HKSampleType))
        #expect(Self.kind(dose) == "sample")
        let types: [HKObjectType] = [medication, dose, HKQuantityType(.stepCount)]
        #expect(types.compactMap { $0 as? HKSampleType }.map(\.identifier)
                == [HKMedicationDoseEventTypeIdentifierMedicationDoseEvent, HKQuantityTypeIdentifier.stepCount.rawValue])
        #expect(medication.identifier == HKDataTypeIdentifierUserAnnotatedMedicationConcept)
        #expect(medication.requiresPerObjectAuthorization())
    }

    /// The type apps see and the one the store keeps its medications under are one type: equal,
    /// one hash, one element of a set, one identifier.
    @Test func theStoredMedicationTypeIsTheSameType() throws {
        let medication: HKObjectType = HKObjectType.userAnnotatedMedicationType()
        let stored = try #require(HKObjectType.type(forIdentifier: HKDataTypeIdentifierUserAnnotatedMedicationConcept))
        #expect(stored == medication && stored.hash == medication.hash && Set([stored, medication]).count == 1)
    }

    /// NSSecureCoding: the type decodes as its own class, read as itself or as `HKObjectType`.
    @Test func theMedicationTypeSurvivesAnArchiveAsItsOwnClass() throws {
        let medication = HKObjectType.userAnnotatedMedicationType()
        let restored = try SecureArchive.roundTrip(medication)
        #expect(restored == medication && ObjectIdentifier(type(of: restored)) == ObjectIdentifier(HKUserAnnotatedMedicationType.self))
        let general = try SecureArchive.roundTrip(medication, as: HKObjectType.self)
        #expect(ObjectIdentifier(type(of: general)) == ObjectIdentifier(HKUserAnnotatedMedicationType.self))
    }
}
