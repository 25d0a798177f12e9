import CLibXML2
import Foundation

/// Drives libxml2's SAX2 push parser over a file, chunk by chunk, and hands each element's start
/// (name, attributes, line) and end to the caller — without Foundation's `XMLParser`, which built
/// an `NSString` per name and a dictionary of new strings per element (a sixth of healthctl's
/// import CPU). Memory stays flat: libxml2 holds one chunk and the open elements' names.
///
/// Safety: the parser never loads a DTD or anything over the network (`XML_PARSE_NONET`, no
/// `XML_PARSE_DTDLOAD`), does not substitute entities (no `XML_PARSE_NOENT`), and keeps libxml2's
/// default limits (no `XML_PARSE_HUGE`: names, attribute values and text are bounded, entity
/// amplification refused). The export's own DTD never reaches it (`ExportSanitizer` drops it), so
/// only XML's five predefined entities and character references can appear.
final class ExportXMLStream {
    /// Bytes read from the file per `xmlParseChunk`.
    static let chunkSize = 1 << 18

    /// One element's attributes as libxml2 hands them: valid only during the `start` callback.
    struct Attributes {
        /// libxml2's array: five pointers per attribute (local name, prefix, URI, value, value end).
        fileprivate let raw: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
        let count: Int

        /// The value of the attribute named `name` (no namespace: the export has none), decoded.
        /// A linear scan: an element has a handful of attributes, fewer than hashing would pay for.
        subscript(name: String) -> String? {
            guard let raw else { return nil }
            for index in 0..<count {
                guard let local = raw[5 * index] else { continue }
                if Self.equal(local, name) { return Self.value(raw, index) }
            }
            return nil
        }

        /// The bytes of all attribute values as libxml2 holds them (`ExportItemBudget` counts them).
        var valueBytes: Int {
            guard let raw else { return 0 }
            var total = 0
            for index in 0..<count {
                if let start = raw[5 * index + 3], let end = raw[5 * index + 4] { total += end - start }
            }
            return total
        }

        /// Every attribute by name (for the rare elements read as a whole: `Me`, `ActivitySummary`).
        var dictionary: [String: String] {
            guard let raw else { return [:] }
            var values: [String: String] = [:]
            for index in 0..<count {
                guard let local = raw[5 * index] else { continue }
                values[String(cString: local)] = Self.value(raw, index)
            }
            return values
        }

        /// Whether libxml2's NUL-terminated name is `name`, byte for byte: the first byte, then
        /// `strncmp` over the string's bytes in place (stepping `utf8` cost more than the
        /// dictionary this replaces). `strncmp` stops at `local`'s NUL, so nothing past it is
        /// read; equal means `local` has at least `name`'s length, so its next byte can be read.
        private static func equal(_ local: UnsafePointer<xmlChar>, _ name: String) -> Bool {
            guard let first = name.utf8.first, local[0] == first else { return false }
            return name.utf8.withContiguousStorageIfAvailable { bytes in
                guard let base = bytes.baseAddress else { return false }
                let text = UnsafeRawPointer(local).assumingMemoryBound(to: CChar.self)
                let wanted = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
                return strncmp(text, wanted, bytes.count) == 0 && local[bytes.count] == 0
            } ?? (String(cString: local) == name)
        }

        /// libxml2 decodes predefined entities and character references in attribute values, but
        /// with entity substitution off it writes `&amp;` and `&#38;` back as `&#38;` (for a tree
        /// builder to re-parse); no other `&` can survive (a bare one is malformed), so each
        /// `&#38;` is the character `&`.
        private static func value(_ raw: UnsafeMutablePointer<UnsafePointer<xmlChar>?>, _ index: Int) -> String {
            guard let start = raw[5 * index + 3], let end = raw[5 * index + 4] else { return "" }
            let bytes = UnsafeBufferPointer(start: start, count: end - start)
            guard bytes.contains(0x26) else { return String(decoding: bytes, as: UTF8.self) }
            var decoded: [UInt8] = []
            decoded.reserveCapacity(bytes.count)
            var position = 0
            let escaped = Array("&#38;".utf8)
            while position < bytes.count {
                if bytes[position] == 0x26, position + escaped.count <= bytes.count,
                   escaped.indices.allSatisfy({ bytes[position + $0] == escaped[$0] }) {
                    decoded.append(0x26)
                    position += escaped.count
                } else {
                    decoded.append(bytes[position])
                    position += 1
                }
            }
            return String(decoding: decoded, as: UTF8.self)
        }
    }

    /// What the caller does with each element.
    struct Handlers {
        var start: (_ name: String, _ attributes: Attributes, _ line: Int) throws -> Void
        var end: (_ name: String) throws -> Void
    }

    private let handlers: Handlers
    private var context: xmlParserCtxtPtr?
    /// The first error a handler threw: parsing stops there and `parse` rethrows it.
    private var failure: (any Error)?

    private init(handlers: Handlers) {
        self.handlers = handlers
    }

    /// Parses the file at `path`, calling `handlers` in document order. Throws what a handler threw,
    /// or `ExportReadError.malformed` with libxml2's line, column and message.
    static func parse(path: String, fileName: String, handlers: Handlers) throws {
        guard let input = FileHandle(forReadingAtPath: path) else {
            throw ExportReadError.io(path: path, reason: "cannot open it for reading")
        }
        defer { try? input.close() }
        let stream = ExportXMLStream(handlers: handlers)
        try stream.run(input, fileName: fileName)
    }

    /// libxml2's global set-up, run once (a Swift `static let` initializes under `swift_once`):
    /// `xmlInitParser` of libxml2 2.9 is not safe to run from two threads at once, and imports and
    /// tests may parse on several.
    private static let libraryReady: Void = xmlInitParser()

    private func run(_ input: FileHandle, fileName: String) throws {
        Self.libraryReady
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { userData, localname, _, _, _, _, attributeCount, _, attributes in
            guard let userData, let localname else { return }
            let stream = Unmanaged<ExportXMLStream>.fromOpaque(userData).takeUnretainedValue()
            stream.started(localname, Attributes(raw: attributes, count: Int(attributeCount)))
        }
        sax.endElementNs = { userData, localname, _, _ in
            guard let userData, let localname else { return }
            Unmanaged<ExportXMLStream>.fromOpaque(userData).takeUnretainedValue().ended(localname)
        }
        // Errors are read from the context after the parse stops, not printed to stderr.
        sax.serror = { _, _ in }
        let box = Unmanaged.passUnretained(self).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&sax, box, nil, 0, fileName) else {
            throw ExportReadError.io(path: fileName, reason: "libxml2 could not make a parser")
        }
        self.context = context
        defer {
            self.context = nil
            xmlFreeParserCtxt(context)
        }
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        var status: Int32 = 0
        while failure == nil, status == 0 {
            let chunk: Data
            do {
                chunk = try input.read(upToCount: Self.chunkSize) ?? Data()
            } catch {
                throw ExportReadError.io(path: fileName, reason: "cannot read it (\(error.localizedDescription))")
            }
            status = chunk.withUnsafeBytes { bytes in
                xmlParseChunk(context, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), chunk.isEmpty ? 1 : 0)
            }
            if chunk.isEmpty { break }
        }
        if let failure { throw failure }
        // With recovery off, libxml2 answers the first well-formedness error with its code.
        if status != 0 {
            throw Self.malformed(context, fileName: fileName)
        }
    }

    private static func malformed(_ context: xmlParserCtxtPtr, fileName: String) -> ExportReadError {
        guard let error = xmlCtxtGetLastError(context) else {
            return .malformed(file: fileName, line: Int(xmlSAX2GetLineNumber(context)), column: Int(xmlSAX2GetColumnNumber(context)),
                              reason: "the parser stopped")
        }
        let message = error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "code \(error.pointee.code)"
        return .malformed(file: fileName, line: Int(error.pointee.line), column: Int(error.pointee.int2), reason: message)
    }

    private func started(_ localname: UnsafePointer<xmlChar>, _ attributes: Attributes) {
        guard failure == nil, let context else { return }
        do {
            try handlers.start(String(cString: localname), attributes, Int(xmlSAX2GetLineNumber(context)))
        } catch {
            stop(error)
        }
    }

    private func ended(_ localname: UnsafePointer<xmlChar>) {
        guard failure == nil else { return }
        do {
            try handlers.end(String(cString: localname))
        } catch {
            stop(error)
        }
    }

    private func stop(_ error: any Error) {
        failure = error
        if let context { xmlStopParser(context) }
    }
}
