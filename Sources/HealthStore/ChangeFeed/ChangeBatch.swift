public import HealthModel

/// One step through a type's change feed: what was added and deleted after a cursor, and the
/// cursor to continue from.
public struct ChangeBatch: Sendable, Equatable {
    public var added: [SampleRecord]
    public var deleted: [DeletedObjectRecord]
    /// Where the next step starts.
    public var cursor: ChangeCursor
    /// Whether the step reached the end of the feed (as of its snapshot); false when a limit
    /// cut it short and more visible changes wait.
    public var reachedEnd: Bool

    public var count: Int { added.count + deleted.count }
}
