import Foundation
import GRDB

/// The *next* pending journal: a key pair made while the store is open, so that a lock — or a
/// healthd started locked (`LockedStart`), which never had the store open — journals to a key
/// whose private half is already committed inside the encrypted store. `locked_start` names it
/// (with its public half, which the snapshot carries); the merge leaves it alone while it is next.
///
/// Retiring: once its file exists, the journal has taken entries, so before every merge (start,
/// unlock) a fresh pair becomes next in one transaction, and the retired one merges like any
/// other. A kill between the two is harmless: the retired journal is no longer next and merges at
/// the next open; a kill before it leaves it next, and a locked start appends to it.
enum LockedStartKeys {
    struct Next: Equatable {
        let generation: Int64
        let publicKey: [UInt8]
    }

    /// The next journal, made if the store has none (or its key row is gone).
    static func next(_ writer: any DatabaseWriter) throws -> Next {
        try writer.write { db in
            if let next = try current(db) { return next }
            return try replace(db)
        }
    }

    /// Before a merge: a fresh next journal when the current one was used (its file exists) or is
    /// missing, so that what was journaled to it is merged now.
    static func retireIfUsed(_ writer: any DatabaseWriter, directory: String) throws {
        try writer.write { db in
            if let next = try current(db),
               !StoreFileIO.exists(PendingJournalFile.path(directory: directory, generation: next.generation)) {
                return
            }
            _ = try replace(db)
        }
    }

    /// The next journal as `locked_start` names it, if its key row exists.
    static func current(_ db: Database) throws -> Next? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT l.next_journal AS generation, k.public_key AS public_key
            FROM locked_start l JOIN pending_journal_keys k ON k.generation = l.next_journal
            WHERE l.id = 1
            """) else { return nil }
        let publicKey: Data = row["public_key"]
        return Next(generation: row["generation"], publicKey: [UInt8](publicKey))
    }

    private static func replace(_ db: Database) throws -> Next {
        let (generation, publicKey) = try PendingJournalKeys.create(db)
        try db.execute(sql: "UPDATE locked_start SET next_journal = ?, next_public_key = ? WHERE id = 1",
                       arguments: [generation, Data(publicKey)])
        return Next(generation: generation, publicKey: publicKey)
    }
}
