import Foundation
import HealthKit
import Testing

/// The SDK's HKCDADocumentSample initializer against Apple's page
/// (developer.apple.com/documentation/healthkit/hkcdadocumentsample/init(data:start:end:metadata:):
/// "Returns a CDA document sample containing the provided XML document"; the XML is validated):
/// a valid document gives a sample whose `document` shows the header's fields and the data; an
/// invalid one throws errorInvalidArgument naming the reason, in both spellings of the initializer.
@Suite(.timeLimit(.minutes(10))) struct HKCDADocumentSampleTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func aValidDocumentShowsItsHeaderFieldsAndData() throws {
        let sample = try HKCDADocumentSample(data: CDADocumentSamples.full, start: Self.date, end: Self.date, metadata: nil)
        let document = try #require(sample.document)
        #expect(document.documentData == CDADocumentSamples.full)
        #expect([document.title, document.patientName, document.authorName, document.custodianName]
                == ["Discharge Summary", "Jane Q Doe", "Dr. Ada Lovelace", "Good Health Clinic"])
        #expect(sample.documentType == HKObjectType.documentType(forIdentifier: .CDA))
        #expect(sample.sampleType.identifier == "HKDocumentTypeIdentifierCDA")
    }

    @Test func anInvalidDocumentThrowsInvalidArgumentWithTheReason() {
        for initializer in [0, 1] {
            #expect { () throws in
                if initializer == 0 {
                    _ = try HKCDADocumentSample(data: CDADocumentSamples.billionLaughs, start: Self.date, end: Self.date, metadata: nil)
                } else {
                    _ = try HKCDADocumentSample(data: CDADocumentSamples.billionLaughs, startDate: Self.date, endDate: Self.date, metadata: nil)
                }
            } throws: { error in
                guard let error = error as? HKError else { return false }
                return error.code == .errorInvalidArgument && error.message.contains("DOCTYPE")
            }
        }
    }
}
