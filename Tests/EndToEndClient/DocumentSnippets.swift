import Foundation
import HealthKit

// Snippets for CDA documents, written as Apple's pages show them (see AppleSnippets.swift).
// Only the `print` lines (and the document text, which Apple's pages leave to the app) are the test's.

/// A CDA document whose header names all four fields `HKCDADocument` shows; `padding` bytes of
/// narrative make it as large as a test needs.
private func cdaDocument(title: String, padding: Int = 0) -> Data {
    Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3">
         <title>\(title)</title>
         <recordTarget><patientRole><patient><name><given>Jane</given><family>Doe</family></name></patient></patientRole></recordTarget>
         <author><assignedAuthor><assignedPerson><name><given>Ada</given><family>Lovelace</family></name></assignedPerson></assignedAuthor></author>
         <custodian><assignedCustodian><representedCustodianOrganization><name>Good Health Clinic</name></representedCustodianOrganization></assignedCustodian></custodian>
         <component><nonXMLBody><text>\(String(repeating: "x", count: padding))</text></nonXMLBody></component>
        </ClinicalDocument>
        """.utf8)
}

/// developer.apple.com/documentation/healthkit/hkcdadocumentsample/init(data:start:end:metadata:):
/// `count` documents ("Visit 1" …), each `padding` bytes of narrative larger, saved one per
/// `save(_:)` (a document may be up to 1 MiB; one save is one frame). Prints the titles the
/// unsaved samples' `document` shows.
func cdaSaveSnippet(_ healthStore: HKHealthStore, count: Int, padding: Int) async throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    var titles: [String] = []
    for index in 1...max(1, count) {
        let cdaData = cdaDocument(title: "Visit \(index)", padding: padding)
        let sample = try HKCDADocumentSample(data: cdaData, start: date.addingTimeInterval(Double(index)),
                                             end: date.addingTimeInterval(Double(index)), metadata: nil)
        try await healthStore.save(sample)
        titles.append(sample.document?.title ?? "nil")
    }
    print("ok saved \(titles.count) \(titles.last ?? "")")
}

/// developer.apple.com/documentation/healthkit/hkdocumentquery/init(documenttype:predicate:limit:sortdescriptors:includedocumentdata:resultshandler:):
/// the handler is called until `done`, collecting each call's results, as Apple's page shows.
/// Prints how many documents, how many handler calls brought results, the newest's header
/// fields and its data's size ("nil" when the query did not include it).
func cdaDocumentQuerySnippet(_ healthStore: HKHealthStore, includeDocumentData: Bool) async throws {
    guard let cdaType = HKObjectType.documentType(forIdentifier: .CDA) else { usage("no CDA document type") }
    let sort = NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)
    let collected: (documents: [HKCDADocumentSample], calls: Int) = try await withCheckedThrowingContinuation { continuation in
        let gathered = Gathered()
        let cdaQuery = HKDocumentQuery(documentType: cdaType, predicate: nil, limit: HKObjectQueryNoLimit,
                                       sortDescriptors: [sort], includeDocumentData: includeDocumentData) { query, results, done, error in
            if let error {
                continuation.resume(throwing: error)
                return
            }
            gathered.add(results?.compactMap { $0 as? HKCDADocumentSample } ?? [])
            if done { continuation.resume(returning: gathered.value) }
        }
        healthStore.execute(cdaQuery)
    }
    guard let newest = collected.documents.first?.document else {
        print("ok 0 \(collected.calls)")
        return
    }
    print("ok \(collected.documents.count) \(collected.calls) \(newest.title)|\(newest.patientName)|\(newest.authorName)|"
          + "\(newest.custodianName) \(newest.documentData.map { "\($0.count)" } ?? "nil")")
}

/// The documents a document query's handler brought, across its calls (the handler is @Sendable).
private final class Gathered: @unchecked Sendable {
    private let lock = NSLock()
    private var documents: [HKCDADocumentSample] = []
    private var calls = 0

    func add(_ batch: [HKCDADocumentSample]) {
        lock.withLock {
            documents += batch
            if !batch.isEmpty { calls += 1 }
        }
    }

    var value: ([HKCDADocumentSample], Int) { lock.withLock { (documents, calls) } }
}

/// developer.apple.com/documentation/healthkit/hkcdadocumentsample/document: "always nil if the
/// sample is returned by an HKSampleQuery". Prints the count, whether each is an
/// HKCDADocumentSample, and how many have a document.
func cdaSampleQuerySnippet(_ healthStore: HKHealthStore) async throws {
    guard let cdaType = HKObjectType.documentType(forIdentifier: .CDA) else { usage("no CDA document type") }
    let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: cdaType, predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: nil) { _, results, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
        }
        healthStore.execute(query)
    }
    let documents = samples.compactMap { $0 as? HKCDADocumentSample }
    print("ok \(samples.count) \(documents.count == samples.count) \(documents.filter { $0.document != nil }.count)")
}

/// init(data:start:end:metadata:) validates the XML: not well-formed, not a ClinicalDocument, a
/// "billion laughs" document type declaration, and a document over the size limit each throw.
/// Prints each HKError code.
func cdaRefusedSnippet() {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    var laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE ClinicalDocument [<!ENTITY lol \"lol\">"
    var previous = "lol"
    for level in 1...9 {
        laughs += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        previous = "lol\(level)"
    }
    laughs += "]>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>&\(previous);</title></ClinicalDocument>"
    let inputs = [Data("<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>".utf8), Data("<html/>".utf8), Data(laughs.utf8),
                  cdaDocument(title: "Too large", padding: 1 << 20)]
    var codes: [String] = []
    for cdaData in inputs {
        do {
            _ = try HKCDADocumentSample(data: cdaData, start: date, end: date, metadata: nil)
            codes.append("accepted")
        } catch let error as HKError {
            codes.append("\(error.code.rawValue)")
        } catch {
            codes.append("other")
        }
    }
    print("ok \(codes.joined(separator: " "))")
}

/// `snippet cda-save COUNT SIZE`: the narrative bytes each document carries (0 when not given).
func snippetPadding() -> Int {
    let arguments = CommandLine.arguments
    return arguments.count > 4 ? Int(arguments[4]) ?? 0 : 0
}

/// developer.apple.com/documentation/healthkit/hkhealthstore/delete(_:withcompletion:): the
/// app's documents, found with an HKSampleQuery, deleted. Prints how many.
func cdaDeleteSnippet(_ healthStore: HKHealthStore) async throws {
    guard let cdaType = HKObjectType.documentType(forIdentifier: .CDA) else { usage("no CDA document type") }
    let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: cdaType, predicate: HKQuery.predicateForObjects(from: HKSource.default()),
                                  limit: HKObjectQueryNoLimit, sortDescriptors: nil) { _, results, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
        }
        healthStore.execute(query)
    }
    try await healthStore.delete(samples)
    print("ok deleted \(samples.count)")
}
