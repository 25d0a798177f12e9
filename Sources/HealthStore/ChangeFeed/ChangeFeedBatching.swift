public import HealthModel

/// The byte bound of one step through the change feed, beside its count (`limit`): a step ends
/// before the change that would take its encoded size past `bytes` (it always takes its first).
/// What `ResultBatching` is for queries; the feed's rows are of two kinds, measured apart. Each
/// table's reading also stops once its rows reach the bound, so a step holds in memory about
/// one frame's worth of records per type, not `limit` of the largest ones.
public struct ChangeFeedBatching {
    public var bytes: Int
    /// An added object's encoded size in the answer (a correlation with its samples).
    public var measureAdded: (SampleRecord) -> Int
    /// A deleted object's encoded size in the answer.
    public var measureDeleted: (DeletedObjectRecord) -> Int

    public init(bytes: Int, measureAdded: @escaping (SampleRecord) -> Int,
                measureDeleted: @escaping (DeletedObjectRecord) -> Int) {
        self.bytes = bytes
        self.measureAdded = measureAdded
        self.measureDeleted = measureDeleted
    }
}
