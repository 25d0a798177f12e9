@testable import AppleHealthExport
import Foundation
import Testing

/// The export reader on libxml2's SAX2 push parser (`ExportXMLStream`): hostile and broken bytes
/// are refused with the line and column a person needs, nothing is expanded or fetched, and
/// attribute values arrive exactly as written (entities decoded once).
@Suite(.timeLimit(.minutes(10))) struct ExportXMLStreamTests {
    private static let recordTail = #"unit="count" startDate="2024-01-01 10:00:00 +0000" endDate="2024-01-01 10:05:00 +0000" value="12"/>"#

    /// Writes `bytes` as a folder's export.xml and reads it through the public reader.
    private func read(_ bytes: [UInt8]) throws -> [ExportItem] {
        let folder = try Fixtures.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(bytes).write(to: folder.appendingPathComponent("export.xml"))
        let file = try AppleHealthExportFile(url: folder)
        var items: [ExportItem] = []
        try file.read { items.append($0) }
        return items
    }

    private func record(sourceName: [UInt8]) -> [UInt8] {
        Array("<HealthData>\n<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"".utf8) + sourceName
            + Array("\" \(Self.recordTail)\n</HealthData>\n".utf8)
    }

    private func sourceNames(_ items: [ExportItem]) -> [String?] {
        items.compactMap { if case let .record(record) = $0 { record.header.source.name } else { nil } }
    }

    private func malformedAt(_ error: any Error) -> (line: Int, column: Int, reason: String)? {
        guard case let .malformed(_, line, column, reason)? = error as? ExportReadError else { return nil }
        return (line, column, reason)
    }

    @Test func entitiesAndCharacterReferencesInAttributesAreDecodedOnce() throws {
        let items = try read(record(sourceName: Array("A &amp; B &lt;C&gt; &quot;D&apos; &#38;amp; &#x263A; &amp;#38;".utf8)))
        #expect(sourceNames(items) == ["A & B <C> \"D' &amp; \u{263A} &#38;"])
    }

    /// Attributes are found by their whole name: a longer or shorter name sharing a prefix is
    /// another attribute (iOS 8's `source` is read only when `sourceName` is absent).
    @Test func attributeNamesMatchWhole() throws {
        let tail = #"startDate="2024-01-01 10:00:00 +0000" endDate="2024-01-01 10:05:00 +0000" value="1"/>"#
        let xml = """
        <HealthData>
        <Record type="HKQuantityTypeIdentifierStepCount" sourceNameX="wrong" sourceNam="wrong" source="legacy" \(tail)
        <Record type="HKQuantityTypeIdentifierStepCount" source="legacy" sourceName="named" \(tail)
        <Record typeX="HKQuantityTypeIdentifierStepCount" type="HKQuantityTypeIdentifierHeartRate" \(tail)
        </HealthData>
        """
        let items = try read(Array(xml.utf8))
        #expect(sourceNames(items) == ["legacy", "named", nil])
        let types = items.compactMap { if case let .record(record) = $0 { record.header.type } else { nil } }
        #expect(types == ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate"])
    }

    @Test func brokenXMLIsReportedWithLineAndColumn() throws {
        // Line 3, the second attribute lacks its quotes: libxml2 stops at the column it reached.
        let xml = "<HealthData>\n<ExportDate value=\"2024-01-01 10:00:00 +0000\"/>\n   <Record type=x/>\n</HealthData>\n"
        #expect { _ = try read(Array(xml.utf8)) } throws: { error in
            guard let at = malformedAt(error) else { return false }
            return at.line == 3 && at.column > 1 && at.column <= 17 && !at.reason.isEmpty
        }
    }

    @Test func invalidUTF8IsRefusedWithItsLine() throws {
        var bytes = record(sourceName: Array("ok".utf8))
        bytes.insert(contentsOf: Array("<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"".utf8) + [0xC3, 0x28]
                     + Array("\" \(Self.recordTail)\n".utf8), at: Array("<HealthData>\n".utf8).count)
        #expect { _ = try read(bytes) } throws: { error in
            guard let at = malformedAt(error) else { return false }
            return at.line == 2 && at.reason.localizedCaseInsensitiveContains("UTF-8")
        }
    }

    /// A NUL byte (and every control character XML forbids) becomes a space before parsing
    /// (`ExportSanitizer`): it neither cuts a value short nor stops the file.
    @Test func nulBytesDoNotTruncateAValue() throws {
        let items = try read(record(sourceName: Array("Ann".utf8) + [0] + Array("Phone".utf8)))
        #expect(sourceNames(items) == ["Ann Phone"])
    }

    /// libxml2's bounds without XML_PARSE_HUGE: a start tag is looked ahead for at most
    /// 10,000,000 bytes in push mode (an attribute value, at most as long), so an attribute of a
    /// megabyte is read whole and one past ten is refused — memory stays bounded.
    @Test func attributeValuesAreBoundedByLibxml2sLimit() throws {
        let fits = try read(record(sourceName: [UInt8](repeating: 0x61, count: 1 << 20)))
        #expect(sourceNames(fits).first??.utf8.count == 1 << 20)
        #expect { _ = try read(record(sourceName: [UInt8](repeating: 0x61, count: 10_000_001))) } throws: { error in
            guard let at = malformedAt(error) else { return false }
            return at.line >= 2 && at.reason.localizedCaseInsensitiveContains("huge")
        }
    }

    /// Billion laughs: the export's DTD is dropped before parsing, so its entities are undeclared
    /// and the reference is an error, never an expansion.
    @Test func entityExpansionIsRefused() throws {
        var dtd = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            dtd += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">\n"
        }
        dtd += "]>\n"
        let bytes = Array(dtd.utf8) + record(sourceName: Array("&lol9;".utf8))
        #expect { _ = try read(bytes) } throws: { error in
            guard let at = malformedAt(error) else { return false }
            return at.line == 15 && at.reason.contains("lol9")
        }
    }

    /// The parser on its own (no sanitizer in front): it registers no declaration of a DTD (it
    /// has no `entityDecl` handler and no tree builder), so even with a DTD in front of it the
    /// first reference — here an internal entity, before a billion laughs, a local file and a URL
    /// — is an undeclared entity: refused at its line, nothing substituted, read or fetched.
    @Test func theParserAloneNeitherReadsExternalEntitiesNorExpandsEntities() throws {
        let folder = try Fixtures.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = folder.appendingPathComponent("secret.txt")
        try Data("SECRET-MARKER".utf8).write(to: secret)
        var laughs = ""
        for level in 1...9 {
            laughs += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">\n"
        }
        let xml = """
        <!DOCTYPE HealthData [
        <!ENTITY lol "lol">
        \(laughs)<!ENTITY file SYSTEM "file://\(secret.path)">
        <!ENTITY web SYSTEM "http://127.0.0.1:9/x">
        <!ENTITY short "expanded">
        ]>
        <HealthData a="&short;"><Me b="&lol9;"/>&file;&web;</HealthData>
        """
        let path = folder.appendingPathComponent("raw.xml")
        try Data(xml.utf8).write(to: path)
        var values: [String] = []
        #expect {
            try ExportXMLStream.parse(path: path.path, fileName: "raw.xml", handlers: .init(
                start: { _, attributes, _ in values += attributes.dictionary.values },
                end: { _ in }))
        } throws: { error in
            guard let at = malformedAt(error) else { return false }
            return at.line == 16 && at.reason.contains("Entity 'short' not defined")
        }
        #expect(!values.contains { $0.contains("SECRET") || $0.contains("expanded") || $0.contains("lollol") })
    }
}
