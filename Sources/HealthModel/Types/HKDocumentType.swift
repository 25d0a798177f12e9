public import Foundation

/// A document sample type, as HealthKit's `HKDocumentType`
/// (`HKObjectType.documentType(forIdentifier: .CDA)`). Apps may read and write it; the document's
/// bytes are kept as given (`DocumentValue`, `DocumentRules`).
public final class HKDocumentType: HKSampleType, @unchecked Sendable {
    init(identifier: HKDocumentTypeIdentifier) {
        super.init(identifier: identifier.rawValue)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}

extension HKDocumentType {
    /// `HKDocumentType(.CDA)`, like `HKScoredAssessmentType(_:)`: traps for an identifier
    /// HealthKit does not define; use `HKObjectType.documentType(forIdentifier:)` for identifiers
    /// from outside.
    public convenience init(_ identifier: HKDocumentTypeIdentifier) {
        guard ObjectTypeRegistry.documentTypes[identifier] != nil else {
            preconditionFailure("'\(identifier.rawValue)' is not a document type identifier; "
                                + "use HKObjectType.documentType(forIdentifier:) for unchecked identifiers")
        }
        self.init(identifier: identifier)
    }
}
