public import Foundation
import CDADocument

/// A Clinical Document Architecture document, as HealthKit's `HKCDADocumentSample`.
///
/// The initializer validates the XML as HealthKit's does before anything is sent: bytes that are
/// not a well-formed HL7 v3 `<ClinicalDocument>`, that declare a document type (entities), or
/// that exceed `DocumentRules.maximumBytes` throw `HKError.errorInvalidArgument` saying why.
/// healthd stores the bytes as given and checks only their size.
///
/// `document` follows HealthKit: nil on samples an `HKSampleQuery` or `HKAnchoredObjectQuery`
/// returns; set on those an `HKDocumentQuery` returns, with `documentData` only when the query
/// asked for it. developer.apple.com/documentation/healthkit/hkcdadocumentsample
public final class HKCDADocumentSample: HKDocumentSample, @unchecked Sendable {
    /// The document's content; see the class comment for when it is nil.
    public private(set) var document: HKCDADocument?

    /// Apple's `init(data:start:end:metadata:)`: `startDate` and `endDate` are the sample's dates
    /// (Apple uses them as a fallback for the document's effective time; here they are always the
    /// sample's dates). An end before the start is refused when saved, like every sample.
    public convenience init(data documentData: Data, start startDate: Date, end endDate: Date,
                            metadata: [String: Any]?) throws {
        let fields: CDADocumentFields
        do {
            fields = try CDADocumentReader.read(documentData)
        } catch {
            // Apple puts the validator's details under HKDetailedCDAValidationErrorKey.
            throw HKError(.errorInvalidArgument, userInfo: [NSLocalizedDescriptionKey: "not a valid CDA document: \(error)",
                                                           HKDetailedCDAValidationErrorKey: "\(error)"])
        }
        self.init(data: documentData, fields: fields, start: startDate, end: endDate, metadata: metadata)
    }

    /// Apple's older spelling (iOS 10–16) of `init(data:start:end:metadata:)`.
    public convenience init(data documentData: Data, startDate: Date, endDate: Date, metadata: [String: Any]?) throws {
        try self.init(data: documentData, start: startDate, end: endDate, metadata: metadata)
    }

    private init(data: Data, fields: CDADocumentFields, start: Date, end: Date, metadata: [String: Any]?) {
        super.init(type: HKDocumentType(.CDA), value: .document(DocumentValue(data: data)),
                   start: start, end: end, device: nil, metadata: metadata)
        document = HKCDADocument(documentData: data, fields: fields)
    }

    init(type: HKDocumentType, fetched record: SampleRecord, parts: FetchedObjectParts) {
        super.init(type: type, fetched: record, parts: parts)
    }

    /// Reads an archive (`ArchivedSample`); the document, with its data, is read again from the
    /// archived bytes, as `HKDocumentQuery` reads it from fetched ones.
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKDocumentType,
              case .document = archived.record.value else { return nil }
        self.init(type: type, fetched: archived.record, parts: archived.parts)
        attachDocument(includingData: true)
    }

    /// Sets `document` from the fetched bytes, for `HKDocumentQuery` (before the sample reaches
    /// the app). Bytes that do not read as a CDA document (stored by a client that bypassed this
    /// SDK's check) still give a document: its data, with empty fields.
    func attachDocument(includingData: Bool) {
        guard case let .document(value) = recordValue else { return }
        let fields = (try? CDADocumentReader.read(value.data)) ?? CDADocumentFields()
        document = HKCDADocument(documentData: includingData ? value.data : nil, fields: fields)
    }
}

/// Apple's `HKDetailedCDAValidationErrorKey`: the `userInfo` key of the error
/// `HKCDADocumentSample(data:start:end:metadata:)` throws for a document that is not valid CDA; its
/// value is a string detailing what the reader refused (developer.apple.com/documentation/healthkit/hkdetailedcdavalidationerrorkey).
public let HKDetailedCDAValidationErrorKey = "HKDetailedCDAValidationErrorKey"
