import CDADocument
import HealthModel

/// How healthctl shows a CDA document sample: its size and the header fields `HKCDADocument`
/// shows, read by `CDADocumentReader` (bounded, no entity expansion; healthctl is the user's own
/// unprivileged process, and the bytes are still treated as untrusted).
enum DocumentText {
    /// The header fields, or nil when the bytes do not read as a CDA document.
    static func fields(_ value: DocumentValue) -> CDADocumentFields? {
        try? CDADocumentReader.read(value.data)
    }

    /// `"Health Data Export"; patient Tom Wallis; author …; custodian …` — the fields that are set.
    static func detail(_ value: DocumentValue) -> String {
        guard let fields = fields(value) else { return "not a readable CDA document" }
        let parts = [("title", fields.title), ("patient", fields.patientName), ("author", fields.authorName),
                     ("custodian", fields.custodianName)]
            .filter { !$0.1.isEmpty }
            .map { "\($0.0) \($0.1)" }
        return parts.isEmpty ? "CDA document" : parts.joined(separator: "; ")
    }
}
