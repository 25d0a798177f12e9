public import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HealthModel

/// Reads the header fields HealthKit's `HKCDADocument` shows from an untrusted CDA document, with
/// Foundation's `XMLParser`, bounded: at most `DocumentRules.maximumBytes`, no document type
/// declaration (so no entity is ever defined, let alone expanded or fetched), external entities
/// off as well, elements at most `maximumDepth` deep, each field at most `maximumFieldLength`
/// characters. It runs in the process that holds the bytes — an app's SDK or healthctl, never
/// healthd (SECURITY.md, "CDA documents").
public enum CDADocumentReader {
    /// HL7 v3's namespace, which a CDA document's root element is in.
    public static let namespace = "urn:hl7-org:v3"
    /// Deeper than any real CDA document (their narrative tables nest a few dozen levels).
    public static let maximumDepth = 256
    /// A field longer than this is cut: they are names and a title, shown in one line.
    public static let maximumFieldLength = 1024

    /// Where each field is, as local element names from the root, in `CDADocumentFields.set`'s order.
    fileprivate static let effectiveTimePath = ["ClinicalDocument", "effectiveTime"]

    fileprivate static let fieldPaths: [[String]] = [
        ["ClinicalDocument", "title"],
        ["ClinicalDocument", "recordTarget", "patientRole", "patient", "name"],
        ["ClinicalDocument", "author", "assignedAuthor", "assignedPerson", "name"],
        ["ClinicalDocument", "custodian", "assignedCustodian", "representedCustodianOrganization", "name"],
    ]

    /// The header fields of `data`, or why it is not a CDA document.
    public static func read(_ data: Data) throws(CDADocumentError) -> CDADocumentFields {
        try readWithEffectiveTime(data).fields
    }

    /// The header fields and the `value` of `/ClinicalDocument/effectiveTime` (HL7 TS text such
    /// as `20160523182721+0100`, at most `maximumFieldLength` characters; nil when the header has
    /// none) — the date healthctl import gives a document whose export kept no dates of its own.
    public static func readWithEffectiveTime(_ data: Data) throws(CDADocumentError)
        -> (fields: CDADocumentFields, effectiveTime: String?) {
        guard !data.isEmpty else { throw .empty }
        guard data.count <= DocumentRules.maximumBytes else {
            throw .tooLarge(bytes: data.count, limit: DocumentRules.maximumBytes)
        }
        try checkBeforeParsing(data)
        let reader = Delegate()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let finished = parser.parse()
        if let failure = reader.failure { throw failure }
        guard finished else {
            throw .malformed(line: parser.lineNumber, column: parser.columnNumber,
                             reason: parser.parserError.map { ($0 as NSError).localizedDescription } ?? "the parser stopped")
        }
        guard reader.path.isEmpty, reader.sawRoot else {
            throw .malformed(line: parser.lineNumber, column: parser.columnNumber, reason: "no root element")
        }
        return (reader.fields, reader.effectiveTime)
    }

    /// Refuses, before any parser sees the bytes, what could make a parser define or expand
    /// entities: whatever libxml2's own limits are, nothing here depends on them. UTF-8 only
    /// (no NUL, valid UTF-8, no other declared encoding), so that a document type declaration
    /// can only be spelled `<!DOCTYPE` in these very bytes; then no such declaration.
    private static func checkBeforeParsing(_ data: Data) throws(CDADocumentError) {
        guard !data.contains(0), String(data: data, encoding: .utf8) != nil else { throw .notUTF8 }
        if let declared = declaredEncoding(data), declared.lowercased() != "utf-8", declared.lowercased() != "utf8" {
            throw .notUTF8
        }
        guard data.range(of: Data("<!DOCTYPE".utf8)) == nil else { throw .documentTypeDeclaration }
    }

    /// The `encoding` of the XML declaration (`<?xml version="1.0" encoding="…"?>`), if any.
    private static func declaredEncoding(_ data: Data) -> String? {
        guard data.starts(with: Data("<?xml".utf8)) || data.starts(with: Data([0xEF, 0xBB, 0xBF] + Array("<?xml".utf8))),
              let end = data.prefix(512).range(of: Data("?>".utf8)),
              let declaration = String(data: data[data.startIndex..<end.lowerBound], encoding: .utf8),
              let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// The parser's delegate: where it is in the tree, and the fields found so far.
    private final class Delegate: NSObject, XMLParserDelegate {
        var path: [String] = []
        var fields = CDADocumentFields()
        var effectiveTime: String?
        private var found: Set<Int> = []
        /// The field being read: its index in `fieldPaths`, the depth of its element, its text so far.
        private var capture: (index: Int, depth: Int, text: String)?
        var failure: CDADocumentError?
        var sawRoot = false

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if path.isEmpty {
                sawRoot = true
                guard name == "ClinicalDocument", namespaceURI == CDADocumentReader.namespace else {
                    return fail(parser, .notClinicalDocument(root: name, namespace: namespaceURI ?? ""))
                }
            }
            path.append(name)
            guard path.count <= CDADocumentReader.maximumDepth else { return fail(parser, .tooDeep(limit: CDADocumentReader.maximumDepth)) }
            if path == CDADocumentReader.effectiveTimePath, namespaceURI == CDADocumentReader.namespace, effectiveTime == nil,
               let value = attributes["value"] {
                effectiveTime = String(value.prefix(CDADocumentReader.maximumFieldLength))
            }
            if capture != nil {
                capture?.text += " "  // name parts (<given>, <family>) are words of their own
            } else if namespaceURI == CDADocumentReader.namespace,
                      let index = CDADocumentReader.fieldPaths.firstIndex(of: path), !found.contains(index) {
                capture = (index, path.count, "")
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            // Beyond what is kept, text is dropped as it comes (a field is cut to maximumFieldLength).
            guard let current = capture, current.text.utf8.count < CDADocumentReader.maximumFieldLength * 4 else { return }
            capture?.text += string
        }

        /// Text in a CDATA section is text of the field like any other.
        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            self.parser(parser, foundCharacters: String(decoding: block, as: UTF8.self))
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if let current = capture {
                if current.depth == path.count {
                    let words = current.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    fields.set(current.index, to: String(words.prefix(CDADocumentReader.maximumFieldLength)))
                    found.insert(current.index)
                    capture = nil
                } else {
                    capture?.text += " "
                }
            }
            _ = path.popLast()
        }

        private func fail(_ parser: XMLParser, _ error: CDADocumentError) {
            if failure == nil { failure = error }
            parser.abortParsing()
        }
    }
}
