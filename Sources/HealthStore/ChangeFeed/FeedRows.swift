/// One table's rows of the change feed after a cursor, in feed order: the records and, at the
/// same index, where each one is in the feed. Kept apart so the records need not be moved
/// again when the two tables' rows are merged (`ChangeFeedRepository.changes`).
struct FeedRows<Record> {
    var records: [Record] = []
    var positions: [ChangeCursor] = []
    /// Each record's encoded size, when the feed is read under a byte bound
    /// (`ChangeFeedBatching`); empty otherwise.
    var sizes: [Int] = []
    /// Reading stopped at the byte bound with more rows left: rows past the last one here may
    /// exist, so a walk over merged rows must not count this table as ended.
    var cutShort = false
    /// The sum of `sizes`.
    var bytes = 0

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

    /// Records the size of the row appended last.
    mutating func measuredLast(_ size: Int) {
        sizes.append(size)
        bytes += size
    }

    mutating func keepFirst(_ count: Int) {
        records.removeLast(records.count - count)
        positions.removeLast(positions.count - count)
        if sizes.count > count { sizes.removeLast(sizes.count - count) }
    }

    /// Rows of several parts' feeds as one feed, in feed order. Each input is already in feed
    /// order and positions are unique across types (row ids are the table's, not the type's),
    /// so a merge by position is the order a one-type feed would have had with all of them.
    /// Takes the rows out of `parts`, which is left empty: a single part (every one-type query)
    /// is moved, not copied, so trimming it afterwards (`keepFirst`) copies no record.
    static func merged(_ parts: inout [FeedRows]) -> FeedRows {
        defer { parts.removeAll() }
        guard parts.count > 1 else { return parts.popLast() ?? FeedRows() }
        var merged = FeedRows()
        merged.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        merged.cutShort = parts.contains(where: \.cutShort)
        let measured = parts.allSatisfy { $0.sizes.count == $0.count }
        var next = [Int](repeating: 0, count: parts.count)
        while true {
            var pick: Int?
            for index in parts.indices where next[index] < parts[index].count {
                if let current = pick, !parts[index].positions[next[index]].precedes(parts[current].positions[next[current]]) { continue }
                pick = index
            }
            guard let pick else { return merged }
            merged.append(parts[pick].records[next[pick]], at: parts[pick].positions[next[pick]])
            if measured { merged.measuredLast(parts[pick].sizes[next[pick]]) }
            next[pick] += 1
        }
    }
}

extension [Int] {
    /// The element at `index`, or 0 past the end.
    func at(_ index: Int) -> Int { indices.contains(index) ? self[index] : 0 }
}
