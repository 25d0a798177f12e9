import GRDB
import Synchronization

/// The writer's side of `StorageUse`: charges noted in the open transaction, applied at its
/// commit, dropped at its rollback or its savepoint's.
///
/// The object writers are static functions handed a `Database` (`SampleRepository.write`,
/// `ObjectDeleter`); they find the store's `StorageUse` through the writer connection it is
/// attached to (`writing(_:)`), so no path that inserts or deletes an object can miss it.
///
/// What a save adds to the commit path is a few memory operations: one lookup of the count, a
/// charge appended to the transaction's list, its application at the commit, and a comparison
/// before the commit (`persistDue`), which looks further only once some app may have moved by the
/// threshold.
extension StorageUse {
    /// The `StorageUse` of each store's writer connection (`attach`), by connection, with the
    /// attachment's number: a connection closed and a new one at the same address must not be
    /// detached by the store that attached the old one.
    private static let attached = Mutex<(next: UInt64, byConnection: [ObjectIdentifier: (use: StorageUse, number: UInt64)])>((0, [:]))

    /// Makes this the count `db` (a store's writer connection) charges. Returns what `detach`
    /// takes. Its commits and rollbacks reach it through the store's `CommitWatcher`.
    func attach(to db: Database) -> Attachment {
        let connection = ObjectIdentifier(db)
        let number = Self.attached.withLock { attached in
            attached.next += 1
            attached.byConnection[connection] = (self, attached.next)
            return attached.next
        }
        return Attachment(connection: connection, number: number)
    }

    struct Attachment: Sendable {
        let connection: ObjectIdentifier
        let number: UInt64
    }

    static func detach(_ attachment: Attachment) {
        attached.withLock { attached in
            if attached.byConnection[attachment.connection]?.number == attachment.number {
                attached.byConnection[attachment.connection] = nil
            }
        }
    }

    /// The count `db`'s writes are charged to; nil on a connection no store attached (a test's
    /// bare database).
    static func writing(_ db: Database) -> StorageUse? {
        attached.withLock { $0.byConnection[ObjectIdentifier(db)]?.use }
    }

    /// Notes `bytes` (negative: given back) for `appID` in the open transaction. `sourceID`: the
    /// app's source row, remembered for deletions.
    func charge(_ bytes: Int64, appID: String, sourceID: Int64) {
        guard bytes != 0 else { return }
        state.withLock { state in
            state.pending.append(Charge(app: appID, sourceID: sourceID, bytes: bytes, newSource: state.sourceApps[sourceID] == nil))
            state.pendingMagnitude += abs(bytes)
        }
    }

    /// Gives `bytes` back to the app of source row `sourceID`, if it is an app's.
    func giveBack(_ bytes: Int64, sourceID: Int64, _ db: Database) throws {
        guard bytes > 0 else { return }
        let known = state.withLock { $0.sourceApps[sourceID] }
        let app: String
        if let known {
            guard !known.isEmpty else { return }
            app = known
        } else {
            // Once per source and store opening (and after a rollback, which forgets them all:
            // a source row read here may have been made in the transaction rolled back).
            let identifier = try String.fetchOne(db.cachedStatement(sql: "SELECT bundle_identifier FROM sources WHERE id = ?"),
                                                 arguments: [sourceID]) ?? "@"
            app = Self.chargedApp(identifier) ?? ""
            state.withLock { $0.sourceApps[sourceID] = app }
            guard !app.isEmpty else { return }
        }
        state.withLock { state in
            state.pending.append(Charge(app: app, sourceID: sourceID, bytes: -bytes, newSource: false))
            state.pendingMagnitude += bytes
        }
    }

    /// Where the open transaction's charges stand: `rollBack(to:)` it when the savepoint begun now
    /// is rolled back.
    func mark() -> Int {
        state.withLock { $0.pending.count }
    }

    func rollBack(to mark: Int) {
        state.withLock { state in
            guard state.pending.count > mark else { return }
            state.pending.removeSubrange(mark...)
            state.pendingMagnitude = state.pending.reduce(0) { $0 + abs($1.bytes) }
        }
    }

    /// Writes, in the open transaction, the count of each app whose count will then be
    /// `persistThreshold` or more from what `app_storage` holds, and of no other app, so every app
    /// is within the threshold once the transaction commits. Called just before a commit
    /// (`CachedTransaction.run`, the journal merge's batches); it looks at the apps only when
    /// `driftBound` says one may be due, and then writes one row per app so far off.
    ///
    /// Whether an app's row is written depends on its own moves alone: `driftBound` counts every
    /// app's charges and only says when nothing can be due. Writing each app "half that far" as
    /// well, once any app was due, made an app's row — what it is seeded from after a crash, and
    /// what it can read back to the byte near its bound — depend on other apps' save volume
    /// (privacy review, session 21, finding 4).
    func persistDue(_ db: Database) throws {
        let due: [(app: String, used: Int64)] = state.withLock { state in
            guard state.driftBound + state.pendingMagnitude >= persistThreshold else { return [] }
            let (due, left) = state.countsToWrite(from: persistThreshold)
            state.driftAfterCommit = left
            return due
        }
        try write(due, db)
    }

    /// Writes every app's count that differs from its row, as the open transaction will leave it.
    func persistAll(_ db: Database) throws {
        let due = state.withLock { state in
            state.driftAfterCommit = 0
            return state.countsToWrite(from: 1).due
        }
        try write(due, db)
    }

    private func write(_ counts: [(app: String, used: Int64)], _ db: Database) throws {
        guard !counts.isEmpty else { return }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO app_storage (app_id, used) VALUES (?, ?) ON CONFLICT(app_id) DO UPDATE SET used = excluded.used
            """)
        for (app, used) in counts {
            try statement.execute(arguments: [app, used])
        }
        state.withLock { state in
            for (app, used) in counts { state.pendingPersisted[app] = used }
        }
    }

    /// The open transaction committed: its charges count, its written rows stand.
    func transactionCommitted() {
        state.withLock { state in
            guard !state.pending.isEmpty || !state.pendingPersisted.isEmpty || state.driftAfterCommit != nil else { return }
            for charge in state.pending {
                if charge.newSource { state.sourceApps[charge.sourceID] = charge.app }
                state.used[charge.app, default: 0] += charge.bytes
                if charge.bytes < 0, let used = state.used[charge.app], used < 0 { state.used[charge.app] = 0 }
            }
            if !state.pendingPersisted.isEmpty {
                state.persisted.merge(state.pendingPersisted) { _, written in written }
                state.pendingPersisted.removeAll()
            }
            state.driftBound = state.driftAfterCommit ?? state.driftBound + state.pendingMagnitude
            state.driftAfterCommit = nil
            state.pending.removeAll(keepingCapacity: true)
            state.pendingMagnitude = 0
        }
    }

    /// The open transaction rolled back: nothing it charged or wrote counts.
    func transactionRolledBack() {
        state.withLock { state in
            state.pending.removeAll(keepingCapacity: true)
            state.pendingPersisted.removeAll()
            state.pendingMagnitude = 0
            state.driftAfterCommit = nil
            state.sourceApps.removeAll()
        }
    }
}

extension StorageUse.State {
    /// Each app's count as the open transaction will leave it, where it is `least` or more from
    /// what `app_storage` holds (or will, with this transaction's rows); and how far the farthest
    /// app left out is from its row.
    func countsToWrite(from least: Int64) -> (due: [(app: String, used: Int64)], left: Int64) {
        var now = used
        for charge in pending where !charge.app.isEmpty { now[charge.app, default: 0] += charge.bytes }
        var due: [(app: String, used: Int64)] = []
        var left: Int64 = 0
        for (app, count) in now {
            let count = max(0, count)
            let drift = abs(count - (pendingPersisted[app] ?? persisted[app] ?? 0))
            if drift >= least { due.append((app, count)) } else { left = max(left, drift) }
        }
        return (due, left)
    }
}
