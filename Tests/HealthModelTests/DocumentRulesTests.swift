import Foundation
import HealthModel
import Testing

/// healthd's check of a document sample: bytes it never parses, so only their size — empty and
/// over `DocumentRules.maximumBytes` refused with errorInvalidArgument naming the limit, the
/// limit itself accepted — and the value kind (a document value only for a document type).
@Suite(.timeLimit(.minutes(10))) struct DocumentRulesTests {
    static func record(_ bytes: Int, type: String = HKDocumentTypeIdentifier.CDA.rawValue) -> SampleRecord {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: date, endDate: date,
                            value: .document(DocumentValue(data: Data(repeating: 0x20, count: bytes))))
    }

    @Test func sizeIsBoundedAtBothEnds() throws {
        _ = try SampleValidator.canonicalized(Self.record(1))
        _ = try SampleValidator.canonicalized(Self.record(DocumentRules.maximumBytes))
        for bytes in [0, DocumentRules.maximumBytes + 1] {
            #expect { try SampleValidator.canonicalized(Self.record(bytes)) } throws: { error in
                guard let error = error as? HKError else { return false }
                return error.code == .errorInvalidArgument && (bytes == 0 || error.message.contains("\(DocumentRules.maximumBytes)"))
            }
        }
    }

    @Test func aDocumentValueBelongsToADocumentTypeOnly() {
        #expect(throws: HKError.self) {
            try SampleValidator.canonicalized(Self.record(10, type: HKQuantityTypeIdentifier.stepCount.rawValue))
        }
        #expect(HKObjectType.documentType(forIdentifier: .CDA)?.identifier == "HKDocumentTypeIdentifierCDA")
        #expect(HKObjectType.documentType(forIdentifier: HKDocumentTypeIdentifier("HKDocumentTypeIdentifierPDF")) == nil)
        #expect(HKObjectType.type(forIdentifier: "HKDocumentTypeIdentifierCDA") is HKDocumentType)
    }
}
