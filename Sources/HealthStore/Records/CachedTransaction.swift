import GRDB

/// The group commit's transaction and savepoint statements, prepared once on the writer
/// connection and run from its statement cache.
///
/// Why: GRDB's `write` and `inSavepoint` run `BEGIN`, `COMMIT`, `SAVEPOINT` and `RELEASE` through
/// `execute(sql:)`, which parses, authorizes, wraps and finalizes each statement on every run —
/// two of them for every durable save, four for every save of a shared commit (issue 17). From
/// the cache they are only reset and stepped. GRDB still steps them, so its transaction
/// observers hear the begin, the savepoints and the commit exactly as before (`CommitWatcher`
/// announces the commit before the writer returns).
///
/// What GRDB's own blocks add and these keep: a failure inside rolls back (the transaction, or
/// the savepoint and then releases it), and work never commits a transaction SQLite aborted by
/// itself (a full disk, an I/O error): `commit` refuses when the connection is no longer inside
/// the transaction it began — GRDB's `inTransaction` throws SQLITE_ABORT there too.
enum CachedTransaction {
    /// The transaction's two statements, which every durable save runs, found without GRDB's
    /// look-up by SQL text (`StatementSlot`); GRDB still runs them (its observers hear them).
    private static let begin = StatementSlot("BEGIN IMMEDIATE TRANSACTION")
    private static let commit = StatementSlot("COMMIT TRANSACTION")

    /// `work` inside one immediate write transaction, committed when it returns.
    static func run<T>(_ db: Database, _ work: () throws -> T) throws -> T {
        try begin.statement(db).execute()
        do {
            let result = try work()
            try requireTransaction(db)
            // Apps' storage counts ride on this commit when one moved far enough (`StorageUse`).
            try StorageUse.writing(db)?.persistDue(db)
            try commit.statement(db).execute()
            return result
        } catch {
            // GRDB's rollback runs ROLLBACK only while a transaction is open (SQLite may have
            // rolled it back already), so the connection never leaves here inside one.
            try? db.rollback()
            throw error
        }
    }

    /// `work` in a savepoint of the open transaction: released when it returns, rolled back to
    /// (and released) when it throws, leaving the rest of the transaction as it was.
    ///
    /// The writer's one savepoint (the group commit's saves, the pending journal's effects): what
    /// the transaction keeps beside SQLite's rows — the apps' storage charges and the commit
    /// watcher's note of changed types — is marked here and cut back here when the savepoint is
    /// rolled back, so a failed save leaves no trace in either.
    static func inSavepoint(_ db: Database, _ work: () throws -> Void) throws {
        try db.cachedStatement(sql: "SAVEPOINT group_save").execute()
        // The save's storage charges go with it if it is rolled back (`StorageUse`).
        let storage = StorageUse.writing(db)
        let charges = storage?.mark()
        // And so do the types it noted (`ChangeCapture`): the commit announces the others only.
        let noted = ChangeCapture.mark(db)
        do {
            try work()
            try requireTransaction(db)
            try db.cachedStatement(sql: "RELEASE SAVEPOINT group_save").execute()
        } catch {
            if let storage, let charges { storage.rollBack(to: charges) }
            // Nothing to roll back when SQLite ended the whole transaction: the caller checks
            // `isInsideTransaction` and fails the whole group.
            guard db.isInsideTransaction else { throw error }
            do {
                try db.cachedStatement(sql: "ROLLBACK TRANSACTION TO SAVEPOINT group_save").execute()
                // The commit must not announce types of the rows just undone.
                ChangeCapture.rollBack(db, to: noted)
                try db.cachedStatement(sql: "RELEASE SAVEPOINT group_save").execute()
            } catch {
                // The failed save's changes could not be undone alone: end the whole transaction,
                // so that the caller fails the group instead of committing them with the others.
                try? db.rollback()
            }
            throw error
        }
    }

    /// SQLite rolls a transaction back by itself after some errors; whatever ran after that ran
    /// outside it, and must not be acknowledged as part of it.
    private static func requireTransaction(_ db: Database) throws {
        guard db.isInsideTransaction else {
            throw DatabaseError(resultCode: .SQLITE_ABORT, message: "the transaction was aborted before its commit")
        }
    }
}
