/// Why healthd cannot start locked (`healthd --start-locked`) or cannot keep the snapshot that
/// lets it. Every text names the file and says what to do; none carries an app id, a grant or
/// key bytes.
public enum LockedStartError: Error, CustomStringConvertible, Sendable, Equatable {
    /// No snapshot: the store was never opened by a healthd that writes one, or it was removed.
    case snapshotMissing(path: String)
    /// The snapshot is older than the last change to apps or grants (`locked-start.generation`):
    /// healthd stopped between committing a change and rewriting the snapshot, or an old copy was
    /// put back. Starting from it could let a revoked grant work again.
    case snapshotStale(path: String, generation: UInt64, storeGeneration: UInt64)
    /// The snapshot does not authenticate under the machine key: altered, or sealed with another
    /// machine key (machine.key replaced since).
    case snapshotNotAuthentic(path: String)
    /// It authenticates but its contents are not a snapshot this healthd can use.
    case snapshotMalformed(path: String, reason: String)
    /// A snapshot file or the generation file could not be read or written.
    case fileUnusable(path: String, reason: String)
    /// The machine key that seals the snapshot could not be read.
    case machineKey(StoreOpenError)
    /// The next pending journal named by the snapshot could not be opened.
    case journal(PendingJournalError)
    /// Another healthd (or a key change) has the store.
    case store(StoreOpenError)

    static let advice = "start healthd once with the passcode (--passcode-file or --passcode-stdin) to write it again"

    public var description: String {
        switch self {
        case let .snapshotMissing(path):
            "cannot start locked: there is no locked-start snapshot \(path); \(Self.advice)"
        case let .snapshotStale(path, generation, storeGeneration):
            "cannot start locked: the locked-start snapshot \(path) (generation \(generation)) is older than the "
                + "store's last change to apps or grants (generation \(storeGeneration)); \(Self.advice)"
        case let .snapshotNotAuthentic(path):
            "cannot start locked: the locked-start snapshot \(path) failed authentication (it was altered, or sealed "
                + "with another machine key); \(Self.advice)"
        case let .snapshotMalformed(path, reason):
            "cannot start locked: the locked-start snapshot \(path) is unusable (\(reason)); \(Self.advice)"
        case let .fileUnusable(path, reason):
            "the locked-start file \(path) could not be used (\(reason)); until it can, healthd cannot start locked, "
                + "and after fixing it \(Self.advice)"
        case let .machineKey(error):
            "cannot start locked: \(error.description); \(Self.advice)"
        case let .journal(error):
            "cannot start locked: \(error.description)"
        case let .store(error):
            "cannot start locked: \(error.description)"
        }
    }
}
