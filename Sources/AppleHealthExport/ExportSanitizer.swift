import Foundation

/// Turns the bytes of a real `export.xml` into XML that libxml2 accepts, streaming, so memory
/// stays flat whatever the file's size.
///
/// Real exports are not always well-formed: iOS 16 wrote a DTD whose declarations are not all
/// closed, and attribute values carry control characters such as U+000B that XML 1.0 forbids.
/// The internal DTD is dropped (nothing in the export needs it — its attributes have no
/// defaults — and without it no entity can expand), each of its lines replaced by an empty one
/// so line numbers in error messages still point into the original file; forbidden control
/// characters become spaces. Nothing else changes.
struct ExportSanitizer {
    /// The prolog (declaration, comments, DTD) must end within this many bytes.
    static let maxPrologBytes = 8 << 20
    private static let root = Array("<HealthData".utf8)
    private static let doctype = Array("<!DOCTYPE".utf8)

    private var prolog: [UInt8] = []
    private var inBody = false
    /// Lines seen so far, for progress.
    private(set) var lines = 0

    /// Feeds the next chunk; returns the bytes to write.
    mutating func process(_ chunk: Data) throws(SanitizerError) -> [UInt8] {
        var bytes = [UInt8](chunk)
        for byte in bytes where byte == 0x0A { lines += 1 }
        if inBody {
            Self.replaceControlCharacters(&bytes)
            return bytes
        }
        prolog += bytes
        guard let rootStart = Self.find(Self.root, in: prolog) else {
            if prolog.count > Self.maxPrologBytes { throw .noRootElement(searched: prolog.count) }
            return []
        }
        inBody = true
        var head = Array(prolog[..<rootStart])
        var body = Array(prolog[rootStart...])
        prolog = []
        if let dtdStart = Self.find(Self.doctype, in: head) {
            let newlines = head[dtdStart...].filter { $0 == 0x0A }.count
            head = Array(head[..<dtdStart]) + [UInt8](repeating: 0x0A, count: newlines)
        }
        Self.replaceControlCharacters(&head)
        Self.replaceControlCharacters(&body)
        return head + body
    }

    /// Call at the end of the input.
    func finish() throws(SanitizerError) {
        if !inBody { throw .noRootElement(searched: prolog.count) }
    }

    enum SanitizerError: Error, Equatable {
        case noRootElement(searched: Int)
    }

    /// XML 1.0 allows tab, line feed and carriage return below U+0020, nothing else.
    private static func replaceControlCharacters(_ bytes: inout [UInt8]) {
        for index in bytes.indices where bytes[index] < 0x20 {
            switch bytes[index] {
            case 0x09, 0x0A, 0x0D: break
            default: bytes[index] = 0x20
            }
        }
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        outer: for start in 0...(bytes.count - pattern.count) {
            for offset in pattern.indices where bytes[start + offset] != pattern[offset] { continue outer }
            return start
        }
        return nil
    }
}
