/// The outcome of `AccessLogRepository.verify()`.
public enum AccessLogVerification: Sendable, Equatable {
    /// Every entry is unchanged and none is missing.
    case intact(entries: Int)
    /// The first problem found, walking from the oldest entry.
    case damaged(AccessLogDamage)
}

/// Where the log stops being trustworthy, and why.
public struct AccessLogDamage: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The entry's content no longer matches its hash: it was edited.
        case editedEntry
        /// The entry does not link to the one before it: an entry was replaced or re-inserted.
        case brokenChain
        /// This sequence number is absent: the entry was deleted (for the newest entries, the
        /// chain head still remembers them).
        case missingEntry
        /// The chain head does not match the newest entry, or is gone while entries remain.
        case headMismatch
    }

    public let sequence: Int64
    public let kind: Kind

    public init(sequence: Int64, kind: Kind) {
        self.sequence = sequence
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .editedEntry: "entry \(sequence) was edited (its content does not match its hash)"
        case .brokenChain: "entry \(sequence) does not link to entry \(sequence - 1) (replaced or re-inserted)"
        case .missingEntry: "entry \(sequence) is missing (deleted)"
        case .headMismatch: "the log's head does not match entry \(sequence) (newest entries deleted or altered)"
        }
    }
}
