/// Why bytes are not a CDA document this reader accepts. Descriptions say what to fix and
/// never quote the document (it is health data).
public enum CDADocumentError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case tooLarge(bytes: Int, limit: Int)
    /// A `<!DOCTYPE …>`: CDA documents have none, and a document type declaration is where
    /// entity definitions live (external entities, "billion laughs"), so it is refused unread.
    case documentTypeDeclaration
    /// Not UTF-8 (another encoding, declared or detected): the declaration check above reads bytes,
    /// which only in UTF-8 spell `<!DOCTYPE` the one way a parser would see it.
    case notUTF8
    /// Elements nested deeper than `limit`.
    case tooDeep(limit: Int)
    /// Not well-formed XML.
    case malformed(line: Int, column: Int, reason: String)
    /// Well-formed, but the root is not HL7 v3's `ClinicalDocument`.
    case notClinicalDocument(root: String, namespace: String)

    public var description: String {
        switch self {
        case .empty: "the CDA document is empty"
        case let .tooLarge(bytes, limit): "the CDA document is \(bytes) bytes; documents may be at most \(limit) bytes"
        case .documentTypeDeclaration:
            "the CDA document has a document type declaration (<!DOCTYPE>); CDA documents have none, and its entities are not expanded"
        case .notUTF8: "the CDA document is not UTF-8 (or declares another encoding); save it as UTF-8"
        case let .tooDeep(limit): "the CDA document nests elements more than \(limit) deep"
        case let .malformed(line, column, reason): "the CDA document is not well-formed XML (line \(line), column \(column)): \(reason)"
        case let .notClinicalDocument(root, namespace):
            "the CDA document's root element is <\(root.prefix(64))> in namespace '\(namespace.prefix(128))'; "
                + "a CDA document is a <ClinicalDocument> in namespace '\(CDADocumentReader.namespace)'"
        }
    }
}
