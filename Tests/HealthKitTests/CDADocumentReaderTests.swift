import CDADocument
import Foundation
import HealthModel
import TestSupport
import Testing

/// The SDK's CDA reader: the four fields HealthKit's `HKCDADocument` shows
/// (developer.apple.com/documentation/healthkit/hkcdadocument: title, patientName, authorName,
/// custodianName), read from an untrusted document with no entity ever defined or expanded.
@Suite(.timeLimit(.minutes(10))) struct CDADocumentReaderTests {
    /// A real Apple Health export's CDA (its title and patient; it names no author or custodian).
    @Test func readsApplesExportCDA() throws {
        let url = SharedFixtures.appleHealth.appendingPathComponent("probablytom-apple-health-neo4j/export_cda.xml")
        let fields = try CDADocumentReader.read(Data(contentsOf: url))
        #expect(fields == CDADocumentFields(title: "Health Data Export", patientName: "Tom Wallis"))
    }

    /// The header's own effectiveTime (what an old export's unnamed document is dated by), not
    /// a nested one (Apple's file has another inside an observation); none when the header has none.
    @Test func readsTheHeadersEffectiveTime() throws {
        let url = SharedFixtures.appleHealth.appendingPathComponent("probablytom-apple-health-neo4j/export_cda.xml")
        let read = try CDADocumentReader.readWithEffectiveTime(Data(contentsOf: url))
        #expect(read.effectiveTime == "20160523182721+0100")
        #expect(read.fields == CDADocumentFields(title: "Health Data Export", patientName: "Tom Wallis"))
        let nested = Data(#"<ClinicalDocument xmlns="urn:hl7-org:v3"><component><effectiveTime value="2020"/></component></ClinicalDocument>"#.utf8)
        #expect(try CDADocumentReader.readWithEffectiveTime(nested).effectiveTime == nil)
        let foreign = Data(#"<ClinicalDocument xmlns="urn:hl7-org:v3"><x:effectiveTime xmlns:x="urn:other" value="2020"/></ClinicalDocument>"#.utf8)
        #expect(try CDADocumentReader.readWithEffectiveTime(foreign).effectiveTime == nil)
    }

    /// Name parts are words of the name, in document order.
    @Test func readsAllFourHeaderFields() throws {
        let fields = try CDADocumentReader.read(CDADocumentSamples.full)
        #expect(fields == CDADocumentFields(title: "Discharge Summary", patientName: "Jane Q Doe",
                                            authorName: "Dr. Ada Lovelace", custodianName: "Good Health Clinic"))
    }

    /// A title in a CDATA section reads as its text.
    @Test func readsATitleInACDATASection() throws {
        let document = Data(CDADocumentSamples.header(title: "<![CDATA[Visit & <Notes>]]>").utf8)
        #expect(try CDADocumentReader.read(document).title == "Visit & <Notes>")
    }

    /// Size at the limit and one byte past it.
    @Test func sizeLimitIsInclusive() throws {
        let atLimit = CDADocumentSamples.sized(DocumentRules.maximumBytes)
        #expect(atLimit.count == DocumentRules.maximumBytes)
        #expect(try CDADocumentReader.read(atLimit).title == "Discharge Summary")
        let over = CDADocumentSamples.sized(DocumentRules.maximumBytes + 1)
        #expect(throws: CDADocumentError.tooLarge(bytes: DocumentRules.maximumBytes + 1, limit: DocumentRules.maximumBytes)) {
            try CDADocumentReader.read(over)
        }
        #expect(throws: CDADocumentError.empty) { try CDADocumentReader.read(Data()) }
    }

    /// Billion laughs and an external entity are refused unread: the title is never expanded,
    /// and no file is read into it.
    @Test func entityDeclarationsAreRefusedBeforeParsing() {
        #expect(throws: CDADocumentError.documentTypeDeclaration) { try CDADocumentReader.read(CDADocumentSamples.billionLaughs) }
        #expect(throws: CDADocumentError.documentTypeDeclaration) { try CDADocumentReader.read(CDADocumentSamples.externalEntity) }
    }

    /// UTF-16 (where `<!DOCTYPE` is other bytes) and a declared non-UTF-8 encoding are refused.
    @Test func onlyUTF8IsRead() throws {
        let utf16 = try #require(String(decoding: CDADocumentSamples.externalEntity, as: UTF8.self).data(using: .utf16))
        #expect(throws: CDADocumentError.notUTF8) { try CDADocumentReader.read(utf16) }
        let latin1 = Data(CDADocumentSamples.header().replacingOccurrences(of: "UTF-8", with: "ISO-8859-1").utf8)
        #expect(throws: CDADocumentError.notUTF8) { try CDADocumentReader.read(latin1) }
    }

    @Test func malformedAndForeignDocumentsAreRefused() {
        let truncated = CDADocumentSamples.full.prefix(CDADocumentSamples.full.count / 2)
        #expect { try CDADocumentReader.read(Data(truncated)) } throws: { error in
            if case .malformed = error as? CDADocumentError { return true }
            return false
        }
        #expect(throws: CDADocumentError.notClinicalDocument(root: "html", namespace: "")) {
            try CDADocumentReader.read(Data("<html><title>x</title></html>".utf8))
        }
        // The right name in no namespace is not HL7 v3's ClinicalDocument.
        #expect(throws: CDADocumentError.notClinicalDocument(root: "ClinicalDocument", namespace: "")) {
            try CDADocumentReader.read(Data("<ClinicalDocument><title>x</title></ClinicalDocument>".utf8))
        }
    }

    /// Nesting at the depth limit is read; one deeper is refused.
    @Test func depthLimit() throws {
        func nested(_ depth: Int) -> Data {
            // The root is level 1; depth - 1 <section>s inside it.
            let inner = depth - 1
            return Data(("<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>t</title>" + String(repeating: "<section>", count: inner)
                         + String(repeating: "</section>", count: inner) + "</ClinicalDocument>").utf8)
        }
        #expect(try CDADocumentReader.read(nested(CDADocumentReader.maximumDepth)).title == "t")
        #expect(throws: CDADocumentError.tooDeep(limit: CDADocumentReader.maximumDepth)) {
            try CDADocumentReader.read(nested(CDADocumentReader.maximumDepth + 1))
        }
    }
}
