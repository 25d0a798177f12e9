import Foundation
import HealthModel
import Testing
import TestSupport

extension AppleSnippetTests {
    static let cda = HKDocumentTypeIdentifier.CDA.rawValue

    /// developer.apple.com/documentation/healthkit/hkcdadocumentsample/init(data:start:end:metadata:)
    /// and …/hkdocumentquery/init(documenttype:predicate:limit:sortdescriptors:includedocumentdata:resultshandler:):
    /// a CDA document saved by a sandboxed app through healthd's encrypted store and read back
    /// with HKDocumentQuery, its `document` showing the header's title, patient, author and
    /// custodian (…/hkcdadocument) and its data.
    @Test func aCDADocumentIsSavedAndReadBackWithADocumentQuery() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-cda")
        try await broker.set(app, "share", Self.cda, allowed: true)
        try await broker.set(app, "read", Self.cda, allowed: true)
        #expect(try await broker.runApp(app, ["snippet", "cda-save"]).okValue == "saved 1 Visit 1")
        let result = try await broker.runApp(app, ["snippet", "cda-document-query"])
        let fields = "Visit 1|Jane Doe|Ada Lovelace|Good Health Clinic"
        let parts = (result.okValue ?? "").split(separator: " ", maxSplits: 2).map(String.init)
        #expect(parts.count == 3 && parts[0] == "1" && parts[1] == "1", "\(result)")
        #expect(parts.last?.hasPrefix(fields + " ") == true && Int(parts.last?.split(separator: " ").last ?? "") ?? 0 > 500, "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkdocumentquery/includedocumentdata: with
    /// `includeDocumentData: false` the header fields are there and `documentData` is nil.
    @Test func aDocumentQueryWithoutDocumentDataLeavesDocumentDataNil() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-cda-no-data")
        try await broker.set(app, "share", Self.cda, allowed: true)
        try await broker.set(app, "read", Self.cda, allowed: true)
        #expect(try await broker.runApp(app, ["snippet", "cda-save"]).okValue == "saved 1 Visit 1")
        let result = try await broker.runApp(app, ["snippet", "cda-document-query-no-data"])
        #expect(result.okValue == "1 1 Visit 1|Jane Doe|Ada Lovelace|Good Health Clinic nil", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkcdadocumentsample/document: "nil if the
    /// sample is returned by an HKSampleQuery". The sample is still an HKCDADocumentSample.
    @Test func aSampleQueryReturnsCDADocumentSamplesWithoutTheirDocument() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-cda-sample-query")
        try await broker.set(app, "share", Self.cda, allowed: true)
        try await broker.set(app, "read", Self.cda, allowed: true)
        #expect(try await broker.runApp(app, ["snippet", "cda-save", "2"]).okValue == "saved 2 Visit 2")
        let result = try await broker.runApp(app, ["snippet", "cda-sample-query"])
        #expect(result.okValue == "2 true 0", "\(result)")
    }

    /// Five documents of 900 000 bytes each (4.5 MB together, more than one 4 MiB frame) come
    /// back whole: healthd streams documents at most two to a batch and cuts a batch before the
    /// row that would take it past `WireLimits.resultBatchBytes` (1 MiB), so these go one to a
    /// batch, and HKDocumentQuery hands each batch to the handler with `done` false before its
    /// final `done` call.
    @Test func largeDocumentsStreamInBatchesUnderTheFrameLimit() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-cda-large")
        try await broker.set(app, "share", Self.cda, allowed: true)
        try await broker.set(app, "read", Self.cda, allowed: true)
        let saved = try await broker.runApp(app, ["snippet", "cda-save", "5", "900000"])
        #expect(saved.okValue == "saved 5 Visit 5", "\(saved)")
        let result = try await broker.runApp(app, ["snippet", "cda-document-query"])
        let parts = (result.okValue ?? "").split(separator: " ").map(String.init)
        #expect(parts.first == "5" && parts.dropFirst().first == "5", "5 documents in 5 handler calls: \(result)")
        #expect(parts.dropFirst(2).first?.hasPrefix("Visit") == true && (Int(parts.last ?? "") ?? 0) > 900_000, "\(result)")
    }

    /// init(data:start:end:metadata:) validates the XML (HealthKit: "The XML content will be
    /// validated against the standard for CDA content"): truncated XML, a non-CDA root, a
    /// billion-laughs entity declaration and a document over 1 MiB each throw
    /// errorInvalidArgument (3) in the app, before anything reaches healthd.
    @Test func invalidCDADocumentsAreRefusedByTheInitializer() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-cda-refused")
        let result = try await broker.runApp(app, ["snippet", "cda-refused"])
        #expect(result.okValue == "3 3 3 3", "\(result)")
    }
}
