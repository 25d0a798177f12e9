public import GRDB
import Synchronization

/// The writer's side of `StorageUse`: charges noted in the open transaction, applied at its
/// commit (the transaction observer below), dropped at its rollback or its savepoint's.
///
/// The object writers are static functions handed a `Database` (`SampleRepository.write`,
/// `ObjectDeleter`); they find the store's `StorageUse` through the writer connection it is
/// attached to (`writing(_:)`), so no path that inserts or deletes an object can miss it.
extension StorageUse: TransactionObserver {
    /// The `StorageUse` of each store's writer connection (`attach`), by connection, with the
    /// attachment's number: a connection closed and a new one at the same address must not be
    /// detached by the store that attached the old one.
    private static let attached = Mutex<(next: UInt64, byConnection: [ObjectIdentifier: (use: StorageUse, number: UInt64)])>((0, [:]))

    /// Makes this the count `db` (a store's writer connection) charges, and hears its
    /// transactions. Returns what `detach` takes.
    func attach(to db: Database) -> Attachment {
        let connection = ObjectIdentifier(db)
        let number = Self.attached.withLock { attached in
            attached.next += 1
            attached.byConnection[connection] = (self, attached.next)
            return attached.next
        }
        db.add(transactionObserver: self, extent: .observerLifetime)
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
        state.withLock { $0.pending.append(Charge(app: appID, sourceID: sourceID, bytes: bytes)) }
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
        state.withLock { $0.pending.append(Charge(app: app, sourceID: sourceID, bytes: -bytes)) }
    }

    /// Where the open transaction's charges stand: `rollBack(to:)` it when the savepoint begun now
    /// is rolled back.
    func mark() -> Int {
        state.withLock { $0.pending.count }
    }

    func rollBack(to mark: Int) {
        state.withLock { state in
            if state.pending.count > mark { state.pending.removeSubrange(mark...) }
        }
    }

    /// Writes, in the open transaction, the count of every app it charged whose count is then
    /// `persistThreshold` or more from what `app_storage` holds. Called just before a commit
    /// (`CachedTransaction.run`, the journal merge's batches): one statement per app every
    /// megabyte or so, none for the commits between.
    func persistDue(_ db: Database) throws {
        let due: [(app: String, used: Int64)] = state.withLock { state in
            guard !state.pending.isEmpty else { return [] }
            var moved: [String: Int64] = [:]
            for charge in state.pending where !charge.app.isEmpty { moved[charge.app, default: 0] += charge.bytes }
            return moved.compactMap { app, bytes in
                let now = max(0, state.used[app, default: 0] + bytes)
                let written = state.pendingPersisted[app] ?? state.persisted[app, default: 0]
                return abs(now - written) >= persistThreshold ? (app, now) : nil
            }
        }
        try write(due, db)
    }

    /// Writes every app's count that differs from its row, as the open transaction will leave it.
    func persistAll(_ db: Database) throws {
        let due: [(app: String, used: Int64)] = state.withLock { state in
            var now = state.used
            for charge in state.pending where !charge.app.isEmpty { now[charge.app, default: 0] += charge.bytes }
            return now.compactMap { app, used in
                let used = max(0, used)
                return used == (state.pendingPersisted[app] ?? state.persisted[app]) ? nil : (app, used)
            }
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

    // MARK: TransactionObserver

    /// No row events: the charges are told, not observed, so no statement costs an update hook.
    public func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }

    public func databaseDidChange(with event: DatabaseEvent) {}

    public func databaseDidCommit(_ db: Database) {
        state.withLock { state in
            guard !state.pending.isEmpty || !state.pendingPersisted.isEmpty else { return }
            for charge in state.pending {
                state.sourceApps[charge.sourceID] = charge.app
                guard !charge.app.isEmpty else { continue }
                state.used[charge.app] = max(0, state.used[charge.app, default: 0] + charge.bytes)
            }
            state.persisted.merge(state.pendingPersisted) { _, written in written }
            state.pending.removeAll(keepingCapacity: true)
            state.pendingPersisted.removeAll()
        }
    }

    public func databaseDidRollback(_ db: Database) {
        state.withLock { state in
            state.pending.removeAll(keepingCapacity: true)
            state.pendingPersisted.removeAll()
            state.sourceApps.removeAll()
        }
    }
}
