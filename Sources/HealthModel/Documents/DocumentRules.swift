/// The broker's rules for document samples, in one place: the validator, the wire reader's
/// bound and the SDK's pre-check all ask here.
///
/// The broker checks only what it can check without parsing the bytes: that there are some
/// and that they fit. Whether they are a CDA document is the SDK's check
/// (`HKCDADocumentSample.init(data:start:end:metadata:)` validates the XML, as Apple's does):
/// an app that bypasses the SDK can store bytes that are not a CDA document, and every reader
/// parses what it receives as untrusted, so such bytes hurt no one but that app's own readers.
public enum DocumentRules {
    /// Largest document accepted, in bytes. Real CDA summaries are tens of kilobytes (the
    /// Apple export fixture is 23 KB); 1 MiB leaves room for large ones while keeping a
    /// document, with its sample's other fields, well inside one 4 MiB frame
    /// (`WireLimits.maxFrameBytes`), so a query batch can always carry at least one.
    public static let maximumBytes = 1 << 20

    /// Refuses an empty document or one larger than `maximumBytes` with errorInvalidArgument;
    /// the message says the size and the limit, never the content.
    public static func check(_ value: DocumentValue) throws(HKError) {
        guard !value.data.isEmpty else {
            throw HKError(.errorInvalidArgument, "a document sample needs the document's data; it is empty")
        }
        guard value.data.count <= maximumBytes else {
            throw HKError(.errorInvalidArgument,
                          "the document is \(value.data.count) bytes; documents may be at most \(maximumBytes) bytes")
        }
    }
}
