/// What can go wrong with the locked store's pending journal. Texts name the file and what to do;
/// none carries entry contents or key bytes.
public enum PendingJournalError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Appending an entry failed (disk full, I/O error): the save was not acknowledged.
    case appendFailed(path: String, reason: String)
    /// The journal file could not be read or removed.
    case fileUnusable(path: String, reason: String)
    /// Parts of the journal could not be merged: `problems`, the first
    /// `PendingJournalProblem.reportedPerFile` in file order, and `more` after them. Every
    /// readable entry was merged; the file is kept under `keptAs`, never deleted.
    case unmerged(path: String, problems: [PendingJournalProblem], more: Int, keptAs: String)
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
        case let .unmerged(path, problems, more, keptAs):
            "the pending journal \(path) is damaged: " + PendingJournalProblem.summary(problems, more: more)
                + ". Every readable entry was merged; the file was kept as \(keptAs) (saves made while the "
                + "store was locked may be missing: check the apps' recent data)"
        case let .keyMissing(path, generation):
            "the key of pending journal \(path) (generation \(generation)) is not in the store; it cannot be merged and was left in place"
        case let .cryptoFailure(operation):
            "OpenSSL failed while \(operation)"
        case let .entryTooLarge(bytes):
            "a pending-journal entry of \(bytes) bytes is larger than the journal takes "
                + "(\(PendingJournalFile.maxEntryBytes) bytes at most)"
        }
    }
}

/// One part of a pending journal that a merge could not take.
public enum PendingJournalProblem: Sendable, Equatable, CustomStringConvertible {
    /// A whole entry that failed authentication or decoding (a flipped bit, tampering).
    case entryDamaged(sequence: UInt64)
    /// Bytes that are not a whole entry (a damaged length, marker or check, or junk); reading
    /// resumed at the next entry after them, if any.
    case bytesUnreadable(offset: Int, bytes: Int)
    /// An entry whose header names more bytes than an entry may hold: skipped unread.
    case entryTooLarge(sequence: UInt64, bytes: Int)

    /// "entry 3 failed authentication; …; and 5 more": what a merge could not take from one file.
    public static func summary(_ problems: [PendingJournalProblem], more: Int) -> String {
        problems.map(\.description).joined(separator: "; ") + (more > 0 ? "; and \(more) more" : "")
    }

    /// How many problems one file's error names (the rest are only counted, so a file of
    /// nothing but damage costs no more memory to report than one damaged entry).
    public static let reportedPerFile = 8

    public var description: String {
        switch self {
        case let .entryDamaged(sequence):
            "entry \(sequence) failed authentication"
        case let .bytesUnreadable(offset, bytes):
            "\(bytes) bytes at offset \(offset) are not a whole entry"
        case let .entryTooLarge(sequence, bytes):
            "entry \(sequence) names \(bytes) bytes, more than an entry may hold (\(PendingJournalFile.maxEntryBytes)), and was skipped"
        }
    }
}
