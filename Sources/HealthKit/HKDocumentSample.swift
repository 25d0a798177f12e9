public import Foundation

/// A sample holding a health document, as HealthKit's `HKDocumentSample`; `HKCDADocumentSample`
/// is its one concrete kind.
public class HKDocumentSample: HKSample, @unchecked Sendable {
    /// The sample's document type (`HKObjectType.documentType(forIdentifier: .CDA)`).
    public var documentType: HKDocumentType {
        // Every HKDocumentSample is made with an HKDocumentType (its initializers take one).
        sampleType as? HKDocumentType ?? HKDocumentType(.CDA)
    }
}
