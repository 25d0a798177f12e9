import Foundation
import GRDB

/// The key pairs of the pending journals, kept in the encrypted store (`pending_journal_keys`).
/// The next journal's pair is made ahead, while the store is open (`LockedStartKeys`); a lock or a
/// locked start journals to it holding only its public half. The merge reads the private half back
/// once the store is open again.
enum PendingJournalKeys {
    struct Stored {
        let generation: Int64
        let privateKey: SecretBytes
        let publicKey: [UInt8]
        let appliedThrough: UInt64
    }

    /// A new key pair, inserted in `db`'s transaction; returns its generation and public key.
    static func create(_ db: Database) throws -> (generation: Int64, publicKey: [UInt8]) {
        let pair = try PendingJournalSeal.keyPair()
        // SQLite copies the bytes into its (encrypted) pages; this Data is the only other copy and
        // is overwritten before it is released.
        var privateCopy = pair.privateKey.withUnsafeBytes { Data(bytes: $0, count: pair.privateKey.count) }
        defer { privateCopy.resetBytes(in: 0 ..< privateCopy.count) }
        try db.execute(sql: "INSERT INTO pending_journal_keys (public_key, private_key) VALUES (?, ?)",
                       arguments: [Data(pair.publicKey), privateCopy])
        return (db.lastInsertedRowID, pair.publicKey)
    }

    /// The journals a merge takes, oldest first: every one but the *next* journal
    /// (`LockedStartKeys`), which is merged only once retired.
    static func generations(_ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db, sql: """
            SELECT generation FROM pending_journal_keys
            WHERE generation IS NOT (SELECT next_journal FROM locked_start WHERE id = 1)
            ORDER BY generation
            """)
    }

    static func load(_ db: Database, generation: Int64) throws -> Stored? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT public_key, private_key, applied_through FROM pending_journal_keys WHERE generation = ?
            """, arguments: [generation]) else { return nil }
        let publicKey = [UInt8](row["public_key"] as Data)
        var privateData: Data = row["private_key"]
        defer { privateData.resetBytes(in: 0 ..< privateData.count) }
        guard publicKey.count == PendingJournalSeal.keyBytes, privateData.count == PendingJournalSeal.keyBytes else {
            throw PendingJournalError.cryptoFailure(operation: "reading pending journal key \(generation) (wrong length)")
        }
        let privateKey = SecretBytes(zeroedCount: privateData.count)
        privateKey.withUnsafeMutableBytes { target in privateData.copyBytes(to: target, count: privateData.count) }
        let applied: Int64 = row["applied_through"]
        return Stored(generation: generation, privateKey: privateKey, publicKey: publicKey,
                      appliedThrough: UInt64(max(applied, 0)))
    }

    static func recordApplied(_ db: Database, generation: Int64, through sequence: UInt64) throws {
        try db.execute(sql: "UPDATE pending_journal_keys SET applied_through = ? WHERE generation = ?",
                       arguments: [Int64(sequence), generation])
    }

    static func remove(_ db: Database, generation: Int64) throws {
        try db.execute(sql: "DELETE FROM pending_journal_keys WHERE generation = ?", arguments: [generation])
    }
}
