/// A `CDADocument` element, OpenHealthKit's own: Apple's export has no element for a stored
/// `HKCDADocumentSample` (its export_cda.xml is a summary it generates). The sample's header
/// attributes and `MetadataEntry` children, then a `FileReference` (as a `WorkoutRoute` names its
/// GPX file) to the document's bytes under `cda-documents/`.
public struct ExportDocument: Sendable, Equatable {
    public var header: ExportSampleHeader
    /// `/cda-documents/<UUID>.xml`; nil when the element names no file (refused on import).
    public var filePath: String?
}
