import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Clinical records in the store (v28 `clinical_records`): the record comes back as saved, its
/// FHIR resource byte for byte; deleting the sample removes its side row; the FHIR resource
/// predicates select what `SamplePredicate.matches` selects
/// (developer.apple.com/documentation/healthkit/hkquery/predicateforclinicalrecords(withfhirresourcetype:),
/// …/predicateforclinicalrecords(from:fhirresourcetype:identifier:)).
@Suite(.timeLimit(.minutes(10))) struct ClinicalRecordRepositoryTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let hospital = SourceRecord(bundleIdentifier: "import/Apple Health/Example Hospital", name: "Example Hospital", version: nil)
    static let labResult = HKClinicalTypeIdentifier.labResultRecord.rawValue

    static func lab(_ resourceType: String, _ id: String, at offset: TimeInterval = 0) -> SampleRecord {
        let json = #"{"resourceType": "\#(resourceType)", "id":"\#(id)" , "note":"ünïcode"}"#
        let value = ClinicalRecordValue(displayName: "Lab \(id)", resourceType: resourceType, identifier: id, data: Data(json.utf8),
                                        sourceURL: offset == 0 ? nil : "https://fhir.example.org/\(resourceType)/\(id)",
                                        fhirVersion: "4.0.1")
        return SampleRecord(uuid: UUID(), typeIdentifier: labResult, startDate: start.addingTimeInterval(offset),
                            endDate: start.addingTimeInterval(offset), value: .clinicalRecord(value))
    }

    static let records = [lab("Observation", "lab-1"), lab("Observation", "lab-2", at: 1), lab("DiagnosticReport", "lab-1", at: 2)]

    @Test func aClinicalRecordIsReadBackAsSaved() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert(Self.records, source: Self.hospital)
        var fetched: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: Self.labResult), scope: .allSources) { fetched += $0 }
        #expect(fetched.sorted { $0.startDate < $1.startDate }.map(\.value) == Self.records.map(\.value))
    }

    @Test func deletingAClinicalRecordRemovesItsSideRow() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuids = try await database.samples.insert([Self.records[0]], source: Self.hospital)
        let before = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM clinical_records") }
        #expect(before == 1)
        let deleted = try await database.samples.delete(uuids.map { ObjectReference(typeIdentifier: Self.labResult, uuid: $0) },
                                                        appID: Self.hospital.bundleIdentifier)
        #expect(deleted == 1)
        let left = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM clinical_records") }
        #expect(left == 0)
    }

    @Test(arguments: [SamplePredicate.fhirResource(resourceType: "Observation", identifier: nil),
                      .fhirResource(resourceType: "DiagnosticReport", identifier: nil),
                      .fhirResource(resourceType: "Observation", identifier: "lab-1"),
                      .fhirResource(resourceType: "Observation", identifier: "lab-3"),
                      .fhirResource(resourceType: "Condition", identifier: nil)])
    func theStoreSelectsWhatThePredicateMeans(predicate: SamplePredicate) async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuids = try await database.samples.insert(Self.records, source: Self.hospital)
        var fetched: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: Self.labResult, predicate: predicate), scope: .allSources) { fetched += $0 }
        let expected = Set(zip(uuids, Self.records).filter { predicate.matches($0.1) }.map(\.0))
        #expect(Set(fetched.map(\.uuid)) == expected)
    }

    /// On another type a FHIR resource predicate matches nothing.
    @Test func onAnotherTypeTheResourcePredicateMatchesNothing() async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let steps = SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, startDate: Self.start,
                                 endDate: Self.start.addingTimeInterval(60), value: .quantity(10, unit: "count"))
        _ = try await database.samples.insert([steps], source: Self.hospital)
        var fetched: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: steps.typeIdentifier,
                                                   predicate: .fhirResource(resourceType: "Observation", identifier: nil)),
                                   scope: .allSources) { fetched += $0 }
        #expect(fetched.isEmpty)
    }
}
