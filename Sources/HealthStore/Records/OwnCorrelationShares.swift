import Foundation
import GRDB
import HealthModel

/// The share rule for an app deleting its own correlations, decided inside the deletion's
/// transaction. HealthKit authorizes a correlation through the types it holds — "When saving a
/// correlation, the app must have permission to share all of the contained objects"
/// (HKCorrelationQuery, "Requesting Permission to Share and Read") — and a correlation type takes
/// no grant of its own. Deleting one deletes its samples with it (`ObjectDeleter`), so it needs
/// what saving them needed: share permission for each type the stored correlation actually
/// holds. Those types are read here, in the transaction that deletes, from the row found among
/// the app's own objects — not from what the app sent, nor from an earlier read that a
/// sync-identifier replacement could have made stale. Every app deletion path runs it: `delete`,
/// `deleteObjects(of:predicate:)`, and the pending journal's merge of either.
enum OwnCorrelationShares {
    /// Throws the share refusal (`HKError.shareRefusal`) for the first type, in identifier order,
    /// that one of the correlations among `rowIDs` holds and `appID` may not share now (grants as
    /// the transaction sees them; a temporary grant past its expiry counts as denied). `rowIDs`
    /// are the app's own rows of correlation types; other rows hold no members and pass.
    static func check(_ rowIDs: [Int64], appID: String, _ db: Database, at now: Date = Date()) throws {
        // The samples `ObjectDeleter` deletes with each correlation, by its own lookup: what is
        // checked is exactly what goes.
        let typeOf = try db.cachedStatement(sql: "SELECT t.identifier FROM objects m JOIN sample_types t ON t.id = m.type_id WHERE m.id = ?")
        var types = Set<String>()
        for rowID in rowIDs {
            for memberID in try ObjectDeleter.members(ofCorrelation: rowID, db) {
                if let type = try String.fetchOne(typeOf, arguments: [memberID]) { types.insert(type) }
            }
        }
        for type in types.sorted() {
            let decision = try GrantRepository.decision(db, appID: appID, type: type, access: .share, at: now)
            if let refusal = HKError.shareRefusal(type, decision) { throw refusal }
        }
    }
}
