import GRDB
import HealthModel

/// A state of mind's side rows (`states_of_mind`, `state_of_mind_labels`,
/// `state_of_mind_associations`). Reads here are keyed by an object id the caller already
/// found visible (`SampleRowDecoder`), so no read here decides visibility.
enum StateOfMindRows {
    /// Stores a validated state of mind (row id `objectID`); other values are not these tables'.
    static func insert(_ db: Database, objectID: Int64, _ value: SampleRecord.Value) throws {
        guard case let .stateOfMind(stateOfMind) = value else { return }
        try db.execute(sql: "INSERT INTO states_of_mind (object_id, kind, valence) VALUES (?, ?, ?)",
                       arguments: [objectID, stateOfMind.kind, stateOfMind.valence])
        let label = try db.cachedStatement(sql: "INSERT INTO state_of_mind_labels (object_id, position, label) VALUES (?, ?, ?)")
        for (position, value) in stateOfMind.labels.enumerated() {
            try label.execute(arguments: [objectID, position, value])
        }
        let association = try db.cachedStatement(sql: """
            INSERT INTO state_of_mind_associations (object_id, position, association) VALUES (?, ?, ?)
            """)
        for (position, value) in stateOfMind.associations.enumerated() {
            try association.execute(arguments: [objectID, position, value])
        }
    }

    static func holdsValue(of typeIdentifier: String) -> Bool {
        typeIdentifier == HKDataTypeIdentifierStateOfMind
    }

    /// A fetched state of mind's value; nil for other types.
    static func value(objectID: Int64, typeIdentifier: String, _ db: Database) throws -> SampleRecord.Value? {
        guard holdsValue(of: typeIdentifier) else { return nil }
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT kind, valence FROM states_of_mind WHERE object_id = ?"),
                                         arguments: [objectID]) else {
            throw StoreIntegrityError.missingStateOfMindRow
        }
        let labels = try Int.fetchAll(db.cachedStatement(sql: """
            SELECT label FROM state_of_mind_labels WHERE object_id = ? ORDER BY position
            """), arguments: [objectID])
        let associations = try Int.fetchAll(db.cachedStatement(sql: """
            SELECT association FROM state_of_mind_associations WHERE object_id = ? ORDER BY position
            """), arguments: [objectID])
        return .stateOfMind(StateOfMindValue(kind: row["kind"], valence: row["valence"], labels: labels, associations: associations))
    }
}
