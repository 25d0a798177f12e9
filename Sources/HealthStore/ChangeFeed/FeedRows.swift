/// One table's rows of the change feed after a cursor, in feed order: the records and, at the
/// same index, where each one is in the feed. Kept apart so the records need not be moved
/// again when the two tables' rows are merged (`ChangeFeedRepository.changes`).
struct FeedRows<Record> {
    var records: [Record] = []
    var positions: [ChangeCursor] = []

    var count: Int { records.count }

    mutating func reserveCapacity(_ count: Int) {
        records.reserveCapacity(count)
        positions.reserveCapacity(count)
    }

    /// Takes `record` over (`consuming`): a record holds many strings, and a copy retains each.
    mutating func append(_ record: consuming Record, at position: ChangeCursor) {
        records.append(record)
        positions.append(position)
    }

    mutating func keepFirst(_ count: Int) {
        records.removeLast(records.count - count)
        positions.removeLast(positions.count - count)
    }
}
