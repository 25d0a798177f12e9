public import Foundation

/// A document sample's value (`HKCDADocumentSample`): the document's bytes exactly as the saving
/// app gave them. The broker never parses them (SECURITY.md, "CDA documents"); the title and
/// names Apple's `HKCDADocument` shows are extracted from these bytes by the SDK that reads them.
public struct DocumentValue: Hashable, Sendable {
    /// The document (an HL7 CDA XML file for `HKDocumentTypeIdentifier.CDA`).
    public var data: Data

    public init(data: Data) {
        self.data = data
    }
}
