import COpenHealthProto
public import HealthModel

// The long-running statistics collection's payload (proto/openhealth/v1/statistics_updates.proto).
// Its request is the one-shot collection's `StatisticsCollectionSpec`.

/// StatisticsCollectionDelivery: one message of the initial collection or of one update.
public struct StatisticsCollectionDelivery: WireMessage, Equatable {
    /// Intervals new or different since the previous delivery (all of them, initially), in time order.
    public var changed: [StatisticsResult]
    /// Starts (microseconds) of intervals that no longer hold data.
    public var emptiedStarts: [Int64]
    /// Set on the last message of a delivery.
    public var endOfDelivery: Bool

    /// Entries of each list per message: keeps a message of `Statistics` (each under ~300 bytes
    /// without sources) far below the frame limit.
    public static let maxEntriesPerMessage = StatisticsLimits.statisticsPerBatch

    public init(changed: [StatisticsResult], emptiedStarts: [Int64], endOfDelivery: Bool) {
        self.changed = changed
        self.emptiedStarts = emptiedStarts
        self.endOfDelivery = endOfDelivery
    }

    /// The messages of one delivery of `change`: at least one (an initial collection may be
    /// empty), the last marked.
    public static func messages(of change: StatisticsCollectionChange) -> [StatisticsCollectionDelivery] {
        let size = maxEntriesPerMessage
        let count = max(1, (max(change.changed.count, change.emptied.count) + size - 1) / size)
        return (0..<count).map { index in
            let range = index * size..<(index + 1) * size
            return StatisticsCollectionDelivery(changed: Array(change.changed[range.clamped(to: change.changed.indices)]),
                                                emptiedStarts: Array(change.emptied[range.clamped(to: change.emptied.indices)]),
                                                endOfDelivery: index == count - 1)
        }
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__StatisticsCollectionDelivery.self, from: bytes) { wire in
            guard wire.n_changed <= Self.maxEntriesPerMessage, wire.n_emptied_start_us <= Self.maxEntriesPerMessage else {
                throw WireDecodeError.invalidField("more than \(Self.maxEntriesPerMessage) intervals of a kind in one message")
            }
            let changed = try WireRead.messages(wire.changed, count: wire.n_changed).map(StatisticsWire.readResult)
            let emptied = wire.n_emptied_start_us > 0 && wire.emptied_start_us != nil
                ? Array(UnsafeBufferPointer(start: wire.emptied_start_us, count: wire.n_emptied_start_us)) : []
            return StatisticsCollectionDelivery(changed: changed, emptiedStarts: emptied, endOfDelivery: wire.end_of_delivery != 0)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__StatisticsCollectionDelivery.initialized()
        let built = changed.map { StatisticsWire.buildResult($0, in: arena) }
        wire.n_changed = built.count
        wire.changed = arena.messages(built)
        wire.n_emptied_start_us = emptiedStarts.count
        wire.emptied_start_us = arena.array(emptiedStarts)
        wire.end_of_delivery = endOfDelivery ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}
