import Foundation
import HealthModel
import Testing
@testable import HealthWire

/// A clinical record on the wire (Sample.value 34, clinical.proto): every field travels, the
/// resource byte for byte; healthd's decoder refuses a resource past
/// `FHIRResourceRules.maxResourceBytes` before copying it (at the limit and one past); the
/// predicates travel with and without an id.
@Suite(.timeLimit(.minutes(10))) struct ClinicalRecordWireTests {
    static func record(_ data: Data, sourceURL: String? = "https://fhir.example.org/AllergyIntolerance/a-1") -> SampleRecord {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let value = ClinicalRecordValue(displayName: "Penicillin — ünïcode", resourceType: "AllergyIntolerance", identifier: "a-1",
                                        data: data, sourceURL: sourceURL, fhirVersion: "1.0.2")
        return SampleRecord(uuid: UUID(), typeIdentifier: HKClinicalTypeIdentifier.allergyRecord.rawValue, startDate: date,
                            endDate: date, value: .clinicalRecord(value))
    }

    @Test func everyFieldTravelsAndTheResourceByteForByte() throws {
        let json = Data(#"{ "id":"a-1",  "resourceType" : "AllergyIntolerance" }"#.utf8)
        for sample in [Self.record(json), Self.record(json, sourceURL: nil)] {
            #expect(try SampleList(wire: SampleList([sample]).wireBytes()).samples == [sample])
        }
    }

    @Test func aResourcePastTheLimitIsRefusedWhenDecoded() throws {
        let atLimit = Self.record(Data(repeating: 0x20, count: FHIRResourceRules.maxResourceBytes))
        #expect(try SampleList(wire: SampleList([atLimit]).wireBytes()).samples == [atLimit])
        let past = Self.record(Data(repeating: 0x20, count: FHIRResourceRules.maxResourceBytes + 1))
        #expect(throws: WireDecodeError.self) { try SampleList(wire: SampleList([past]).wireBytes()) }
    }

    @Test(arguments: [SamplePredicate.fhirResource(resourceType: "Observation", identifier: nil),
                      .fhirResource(resourceType: "Observation", identifier: "lab-1"),
                      .fhirResource(resourceType: "Observation", identifier: "")])
    func theResourcePredicateTravels(predicate: SamplePredicate) throws {
        let spec = SampleQuerySpec(typeIdentifier: HKClinicalTypeIdentifier.labResultRecord.rawValue, predicate: predicate)
        #expect(try SampleQuerySpec(wire: spec.wireBytes()) == spec)
    }

    /// A batch of clinical records always fits one frame: the batch size times the largest record
    /// (resource at its limit, metadata at `SampleLimits`' limits) stays under the frame limit.
    @Test func aBatchOfTheLargestRecordsFitsOneFrame() throws {
        var sample = Self.record(Data(repeating: 0x20, count: FHIRResourceRules.maxResourceBytes))
        for index in 0..<SampleLimits.maximumMetadataEntries {
            let key = "k\(index)" + String(repeating: "k", count: SampleLimits.maximumMetadataKeyBytes - 1 - "\(index)".count)
            sample.metadata[key] = .string(String(repeating: "v", count: SampleLimits.maximumMetadataStringBytes))
        }
        let batch = Array(repeating: sample, count: WireLimits.samplesPerBatch(types: [sample.typeIdentifier]))
        #expect(SampleList(batch).wireBytes().count < WireLimits.maxFrameBytes - 1024)
        #expect(WireLimits.samplesPerBatch(types: [HKQuantityTypeIdentifier.stepCount.rawValue]) == WireLimits.samplesPerBatch)
    }
}
