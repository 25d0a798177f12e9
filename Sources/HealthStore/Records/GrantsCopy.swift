import GRDB

/// What a locked store keeps of the encrypted store: the installed apps, the user's grants, the
/// direct-connection and network opt-ins and the apps' sandbox uids, in an in-memory database (never on disk), so that identity,
/// `authorizationStatus`, requests and grant editing keep working while the data key is gone.
/// Grant changes made while locked go to the copy and, first, to the pending journal, whose merge
/// applies them to the store (StoreHandle.applyGrants); apps and direct connections are read-only
/// while locked. The copy is kept in `locked-start.snapshot` too (`keepLockedStartSnapshot`), so a
/// change made while locked is in force after a locked restart.
///
/// The privacy cost (SECURITY.md, "Locked store"): while locked, healthd's memory still holds
/// which apps are installed and what the user granted them — not one sample. Apps launch while
/// locked (their uid and network setting come from here); one installed while locked cannot.
extension HealthDatabase {
    /// An in-memory HealthDatabase (full schema, no health data) holding this store's apps,
    /// grants, opt-ins, sandbox uids and next pending journal: the rows a locked-start snapshot
    /// carries (`LockedStartSnapshot`), copied the same way, so a lock and a locked start serve
    /// the same tables.
    public func grantsCopy() throws -> HealthDatabase {
        let snapshot = try writer.read { try LockedStartSnapshot.read($0) }
        let copy = try HealthDatabase(writer: try DatabaseQueue())
        try copy.writer.write { try snapshot.restore(into: $0, path: "(grants copy)") }
        return copy
    }
}
