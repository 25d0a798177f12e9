import Foundation
import GRDB
import HealthModel

/// A document sample's side row (`documents`): its bytes, stored opaque.
enum DocumentRows {
    /// Stores the bytes of a validated document (row id `objectID`); other values are not this table's.
    static func insert(_ db: Database, objectID: Int64, _ value: SampleRecord.Value) throws {
        guard case let .document(document) = value else { return }
        try db.execute(sql: "INSERT INTO documents (object_id, data) VALUES (?, ?)",
                       arguments: [objectID, document.data])
    }

    /// Whether objects of `typeIdentifier` keep their value here rather than in `objects`.
    static func holdsValue(of typeIdentifier: String) -> Bool {
        HKObjectType.type(forIdentifier: typeIdentifier) is HKDocumentType
    }

    /// A fetched document's value; nil for other types.
    static func value(objectID: Int64, typeIdentifier: String, _ db: Database) throws -> SampleRecord.Value? {
        guard holdsValue(of: typeIdentifier) else { return nil }
        guard let data = try Data.fetchOne(db.cachedStatement(sql: "SELECT data FROM documents WHERE object_id = ?"),
                                           arguments: [objectID]) else {
            throw StoreIntegrityError.missingDocumentRow
        }
        return .document(DocumentValue(data: data))
    }
}
