public import Foundation
import CDADocument

/// A CDA document's content, as HealthKit's `HKCDADocument`: the XML (when the query asked for
/// it) and the header fields HealthKit extracts. The fields are read from the bytes in this
/// process by `CDADocumentReader` (bounded, no entity expansion); healthd never parses them.
public final class HKCDADocument: NSObject, @unchecked Sendable {
    /// The document's XML; nil when `HKDocumentQuery` ran with `includeDocumentData: false`.
    public let documentData: Data?
    /// The document's title (`/ClinicalDocument/title`); "" when it has none.
    public let title: String
    /// The patient's name; "" when the document names none.
    public let patientName: String
    /// The author's name; "" when the document names none.
    public let authorName: String
    /// The custodian organization's name; "" when the document names none.
    public let custodianName: String

    init(documentData: Data?, fields: CDADocumentFields) {
        self.documentData = documentData
        title = fields.title
        patientName = fields.patientName
        authorName = fields.authorName
        custodianName = fields.custodianName
        super.init()
    }
}
