import Foundation
import GRDB
import HealthModel

/// Lookups of objects by UUID confined to the calling app's own objects, for the methods that
/// change objects (associate, finish a route, delete). The confinement is the same
/// `SampleSQL.visibility` condition reads use, with the app's own scope: another app's object and
/// an object that does not exist give the same nil, from the same indexed lookup.
enum OwnedObjects {
    /// The row id of `appID`'s object `uuid` of type `typeIdentifier`, or nil.
    static func rowID(_ db: Database, uuid: UUID, typeIdentifier: String, appID: String) throws -> Int64? {
        let own = SampleSQL.visibility(.ownSamples(appID: appID))
        return try Int64.fetchOne(db, sql: """
            SELECT o.id FROM objects o
            WHERE o.uuid = ? AND o.type_id = ? AND \(own.sql)
            """, arguments: [uuid, try SampleSQL.typeID(db, typeIdentifier)] + own.arguments)
    }

    /// The row id and type of `appID`'s object `uuid`, whatever its type, or nil.
    static func row(_ db: Database, uuid: UUID, appID: String) throws -> (id: Int64, typeIdentifier: String)? {
        let own = SampleSQL.visibility(.ownSamples(appID: appID))
        let row = try Row.fetchOne(db, sql: """
            SELECT o.id, t.identifier FROM objects o JOIN sample_types t ON t.id = o.type_id
            WHERE o.uuid = ? AND \(own.sql)
            """, arguments: [uuid] + own.arguments)
        return row.map { ($0["id"], $0["identifier"]) }
    }
}
