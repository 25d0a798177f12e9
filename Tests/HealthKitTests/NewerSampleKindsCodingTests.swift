import Foundation
import Testing
@testable import HealthKit
import HealthWire

/// The sample kinds added last archive as every `HKObject` does (Apple: `HKObject` and its
/// subclasses are `NSSecureCoding`): a fetched audiogram, CDA document, clinical record, glasses
/// and contacts prescription, heartbeat series and workout route — built as healthd's answer
/// would be (`HKSample.fetched`) — come back from Apple's archiving snippet as the same class
/// with the same UUID (hence `==`) and the same kind-specific value. Issue 15, item 4 (the
/// audit's gap 10: these decoders had no round trip).
@Suite(.timeLimit(.minutes(10))) struct NewerSampleKindsCodingTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static let source = SourceRecord(bundleIdentifier: "org.example.clinic", name: "Clinic", version: "2")

    private func fetchedRoundTrip<T: HKSample>(_ value: SampleRecord.Value, type typeIdentifier: String, as cls: T.Type,
                                               end: Date = date) throws -> (original: T, restored: T) {
        let record = SampleRecord(uuid: UUID(), typeIdentifier: typeIdentifier, startDate: Self.date, endDate: end, value: value,
                                  metadata: ["custom.note": .string("kept")], source: Self.source)
        let original = try #require(try HKSample.fetched(record) as? T)
        let archived = try NSKeyedArchiver.archivedData(withRootObject: original, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: cls, from: archived))
        #expect(restored == original && restored.uuid == original.uuid && restored.hash == original.hash)
        #expect(ObjectIdentifier(type(of: restored)) == ObjectIdentifier(type(of: original)))
        #expect(restored.startDate == original.startDate && restored.endDate == original.endDate)
        #expect(restored.sourceRevision == original.sourceRevision && restored.metadata?["custom.note"] as? String == "kept")
        return (original, restored)
    }

    @Test func anAudiogramKeepsItsPoints() throws {
        let value = AudiogramValue(points: [
            .init(frequency: 500, tests: [.init(sensitivity: -20, side: 0), .init(sensitivity: 160, masked: true, side: 1,
                                                                                  clampingLowerBound: nil, clampingUpperBound: 160.5)]),
            .init(frequency: 8000, tests: [.init(sensitivity: 45, side: 1)]),
        ])
        let (original, restored) = try fetchedRoundTrip(.audiogram(value), type: HKDataTypeIdentifierAudiogram, as: HKAudiogramSample.self,
                                                        end: Self.date.addingTimeInterval(600))
        #expect(restored.sensitivityPoints == original.sensitivityPoints && restored.sensitivityPoints.count == 2)
    }

    @Test func aCDADocumentKeepsItsDocumentFields() throws {
        let xml = #"<ClinicalDocument xmlns="urn:hl7-org:v3"><title>Visit</title></ClinicalDocument>"#
        let (original, restored) = try fetchedRoundTrip(.document(DocumentValue(data: Data(xml.utf8))), type: HKDocumentTypeIdentifier.CDA.rawValue,
                                                        as: HKCDADocumentSample.self)
        // A sample query's result has no document (Apple's rule); the archive holds the bytes
        // and the restored sample reads its document from them, as an HKDocumentQuery does.
        #expect(original.document == nil)
        #expect(restored.document?.title == "Visit" && restored.document?.documentData == Data(xml.utf8))
        let made = try HKCDADocumentSample(data: Data(xml.utf8), start: Self.date, end: Self.date, metadata: nil)
        let restoredMade = try SecureArchive.roundTrip(made)
        #expect(restoredMade == made && restoredMade.document?.title == made.document?.title)
        #expect(restoredMade.document?.documentData == made.document?.documentData)
    }

    @Test func aClinicalRecordKeepsItsResourceByteForByte() throws {
        let json = Data(#"{"resourceType":"AllergyIntolerance","id":"a-1","code":{"text":"Penicillin"}}"#.utf8)
        let value = ClinicalRecordValue(displayName: "Penicillin", resourceType: "AllergyIntolerance", identifier: "a-1", data: json,
                                        sourceURL: "https://fhir.example.org/AllergyIntolerance/a-1", fhirVersion: "4.0.1")
        let (original, restored) = try fetchedRoundTrip(.clinicalRecord(value), type: HKClinicalTypeIdentifier.allergyRecord.rawValue,
                                                        as: HKClinicalRecord.self)
        #expect(restored.displayName == "Penicillin" && restored.clinicalType == original.clinicalType)
        #expect(restored.fhirResource?.data == json && restored.fhirResource?.fhirVersion == HKFHIRVersion.primaryR4())
        #expect(restored.fhirResource?.sourceURL == original.fhirResource?.sourceURL)
    }

    @Test func glassesAndContactsPrescriptionsKeepTheirLenses() throws {
        let glasses = VisionPrescriptionValue(
            kind: VisionPrescriptionValue.glasses, hasLenses: true, expirationDate: Self.date.addingTimeInterval(86_400 * 365),
            rightEye: LensSpecificationValue(sphere: -2.25, cylinder: -0.5, axis: 90, prism: VisionPrismValue(amount: 1.5, angle: 270, eye: 2)),
            leftEye: LensSpecificationValue(sphere: -2))
        let (original, restored) = try fetchedRoundTrip(.visionPrescription(glasses), type: HKVisionPrescriptionTypeIdentifier,
                                                        as: HKGlassesPrescription.self)
        #expect(restored.rightEye == original.rightEye && restored.leftEye == original.leftEye && restored.rightEye?.prism != nil)
        #expect(restored.expirationDate == original.expirationDate && restored.prescriptionType == .glasses)

        var contactsLens = LensSpecificationValue(sphere: 1.25)
        contactsLens.baseCurve = 8.6
        contactsLens.diameter = 14.2
        let contacts = VisionPrescriptionValue(kind: VisionPrescriptionValue.contacts, hasLenses: true, expirationDate: nil,
                                               rightEye: contactsLens, leftEye: nil, brand: "Acme Daily")
        let (originalContacts, restoredContacts) = try fetchedRoundTrip(.visionPrescription(contacts), type: HKVisionPrescriptionTypeIdentifier,
                                                                        as: HKContactsPrescription.self)
        #expect(restoredContacts.rightEye == originalContacts.rightEye && restoredContacts.leftEye == nil)
        #expect(restoredContacts.brand == "Acme Daily")
        // A glasses prescription's fields are not a contacts one. (Asked through
        // `unarchivedObject(ofClass:)`, swift-corelibs-foundation traps on the class mismatch
        // before the SDK's decoder runs — the documented limit — so the fields are decoded
        // directly.)
        let fields = FieldRecorder.fields(of: original)
        #expect(try SecureArchive.decoded(HKContactsPrescription.self) { FieldRecorder.write(fields, to: $0) } == nil)
        #expect(try SecureArchive.decoded(HKGlassesPrescription.self) { FieldRecorder.write(fields, to: $0) } == original)
    }

    @Test func aHeartbeatSeriesAndARouteKeepTheirCounts() throws {
        let beats = HeartbeatSeriesValue(beats: [0, 0.8, 1.7].map { Heartbeat(timeSinceSeriesStart: $0, precededByGap: false) })
        let (heart, restoredHeart) = try fetchedRoundTrip(.heartbeatSeries(beats), type: HKDataTypeIdentifierHeartbeatSeries,
                                                          as: HKHeartbeatSeriesSample.self, end: Self.date.addingTimeInterval(2))
        #expect(restoredHeart.count == heart.count && restoredHeart.count == 3)
        let (route, restoredRoute) = try fetchedRoundTrip(.workoutRoute(locationCount: 1_234), type: HKWorkoutRouteTypeIdentifier,
                                                          as: HKWorkoutRoute.self, end: Self.date.addingTimeInterval(600))
        #expect(restoredRoute.count == route.count && restoredRoute.count == 1_234)
    }
}
