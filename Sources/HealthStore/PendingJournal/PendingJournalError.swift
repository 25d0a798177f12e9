/// What can go wrong with the locked store's pending journal. Texts name the file and what to do;
/// none carries entry contents or key bytes.
public enum PendingJournalError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Appending an entry failed (disk full, I/O error): the save was not acknowledged.
    case appendFailed(path: String, reason: String)
    /// The journal file could not be read or removed.
    case fileUnusable(path: String, reason: String)
    /// An entry failed authentication (a flipped bit, a truncated middle, tampering). The entries
    /// before it were merged; the file is kept under `keptAs` for inspection.
    case damaged(path: String, sequence: UInt64, keptAs: String)
    /// The journal's key pair has no row in the store (a store restored from an older backup).
    case keyMissing(path: String, generation: Int64)
    case cryptoFailure(operation: String)
    /// An entry larger than the journal takes (a save is bounded by the frame size long before).
    case entryTooLarge(bytes: Int)

    public var description: String {
        switch self {
        case let .appendFailed(path, reason):
            "the save could not be kept in the locked store's pending journal \(path) (\(reason)); nothing was saved, try again"
        case let .fileUnusable(path, reason):
            "the pending journal \(path) could not be used: \(reason)"
        case let .damaged(path, sequence, keptAs):
            "entry \(sequence) of the pending journal \(path) failed authentication; the entries before it were merged, "
                + "it and the rest were kept as \(keptAs)"
        case let .keyMissing(path, generation):
            "the key of pending journal \(path) (generation \(generation)) is not in the store; it cannot be merged and was left in place"
        case let .cryptoFailure(operation):
            "OpenSSL failed while \(operation)"
        case let .entryTooLarge(bytes):
            "a pending-journal entry of \(bytes) bytes is larger than the journal takes"
        }
    }
}
