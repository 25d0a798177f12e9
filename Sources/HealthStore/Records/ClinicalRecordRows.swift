import Foundation
import GRDB
import HealthModel

/// A clinical record's side row (`clinical_records`). Reads here are keyed by an object id the
/// caller already found visible (`SampleRowDecoder`), so no read here decides visibility.
enum ClinicalRecordRows {
    /// Stores a validated clinical record (row id `objectID`); other values are not this table's.
    static func insert(_ db: Database, objectID: Int64, _ value: SampleRecord.Value) throws {
        guard case let .clinicalRecord(record) = value else { return }
        try db.execute(sql: """
            INSERT INTO clinical_records (object_id, display_name, resource_type, resource_id, resource, source_url, fhir_version)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [objectID, record.displayName, record.resourceType, record.identifier, record.data,
                             record.sourceURL, record.fhirVersion])
    }

    static func holdsValue(of typeIdentifier: String) -> Bool {
        HKObjectType.type(forIdentifier: typeIdentifier) is HKClinicalType
    }

    /// A fetched clinical record's value; nil for other types.
    static func value(objectID: Int64, typeIdentifier: String, _ db: Database) throws -> SampleRecord.Value? {
        guard holdsValue(of: typeIdentifier) else { return nil }
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT display_name, resource_type, resource_id, resource, source_url, fhir_version
            FROM clinical_records WHERE object_id = ?
            """), arguments: [objectID]) else {
            throw StoreIntegrityError.missingClinicalRecordRow
        }
        return .clinicalRecord(ClinicalRecordValue(
            displayName: row["display_name"], resourceType: row["resource_type"], identifier: row["resource_id"],
            data: row["resource"], sourceURL: row["source_url"], fhirVersion: row["fhir_version"]))
    }
}
