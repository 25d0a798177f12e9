import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// CDA document samples in the store (v29 `documents`): the bytes come back exactly as saved,
/// including bytes that are not XML at all (healthd never parses them); deleting the sample
/// removes its document.
@Suite(.timeLimit(.minutes(10))) struct DocumentRepositoryTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static let owner = SourceRecord(bundleIdentifier: "org.example.owner", name: "Owner", version: "1")

    static func record(_ bytes: Data) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKDocumentTypeIdentifier.CDA.rawValue, startDate: date, endDate: date,
                     value: .document(DocumentValue(data: bytes)))
    }

    @Test func theBytesRoundTripUnchanged() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let xml = Data("<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>T</title></ClinicalDocument>".utf8)
        let opaque = Data((0..<DocumentRules.maximumBytes).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        _ = try await database.samples.insert([Self.record(xml), Self.record(opaque)], source: Self.owner)
        var fetched: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: HKDocumentTypeIdentifier.CDA.rawValue), scope: .allSources) {
            fetched += $0
        }
        #expect(fetched.map(\.value) == [.document(DocumentValue(data: xml)), .document(DocumentValue(data: opaque))])
    }

    @Test func deletingADocumentSampleRemovesItsBytes() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuids = try await database.samples.insert([Self.record(Data("<x/>".utf8))], source: Self.owner)
        let stored = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM documents") }
        #expect(stored == 1)
        let deleted = try await database.samples.delete([ObjectReference(typeIdentifier: HKDocumentTypeIdentifier.CDA.rawValue,
                                                                         uuid: uuids[0])],
                                                        appID: Self.owner.bundleIdentifier)
        #expect(deleted == 1)
        let left = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM documents") }
        #expect(left == 0)
    }
}
