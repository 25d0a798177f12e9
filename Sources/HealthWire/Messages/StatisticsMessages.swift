import COpenHealthProto
public import Foundation
public import HealthModel

// The statistics payloads of the app-facing service (proto/openhealth/v1/statistics.proto).

/// StatisticsQueryRequest.
extension StatisticsQuerySpec: WireMessage {
    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__StatisticsQueryRequest.self, from: bytes, StatisticsWire.readQuery)
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        return ProtobufCodec.encode(StatisticsWire.buildQuery(self, in: arena).pointee)
    }
}

/// StatisticsCollectionRequest.
extension StatisticsCollectionSpec: WireMessage {
    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__StatisticsCollectionRequest.self, from: bytes) { wire in
            guard let query = wire.query, let interval = wire.interval?.pointee else {
                throw WireDecodeError.invalidField("a statistics collection request needs a query and an interval")
            }
            return StatisticsCollectionSpec(
                statistics: try StatisticsWire.readQuery(query.pointee),
                anchor: Date(microsecondsSince1970: wire.anchor_us),
                interval: StatisticsInterval(minutes: Int(interval.minutes), hours: Int(interval.hours), days: Int(interval.days),
                                             weeks: Int(interval.weeks), months: Int(interval.months)),
                timeZoneIdentifier: WireRead.string(wire.time_zone))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__StatisticsCollectionRequest.initialized()
        wire.query = StatisticsWire.buildQuery(statistics, in: arena)
        wire.anchor_us = anchor.microsecondsSince1970
        wire.interval = arena.message { (wire: inout Openhealth__V1__StatisticsInterval) in
            // Negative counts are invalid; sent as 0 they are refused by the broker's validation.
            wire.minutes = UInt32(clamping: interval.minutes)
            wire.hours = UInt32(clamping: interval.hours)
            wire.days = UInt32(clamping: interval.days)
            wire.weeks = UInt32(clamping: interval.weeks)
            wire.months = UInt32(clamping: interval.months)
        }
        wire.time_zone = arena.string(timeZoneIdentifier)
        return ProtobufCodec.encode(wire)
    }
}

/// Statistics: one interval's result.
extension StatisticsResult: WireMessage {
    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__Statistics.self, from: bytes, StatisticsWire.readResult)
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        return ProtobufCodec.encode(StatisticsWire.buildResult(self, in: arena).pointee)
    }
}

/// StatisticsBatch: consecutive intervals of a collection.
public struct StatisticsBatch: WireMessage, Equatable {
    public var statistics: [StatisticsResult]

    public init(_ statistics: [StatisticsResult]) { self.statistics = statistics }

    public init(wire bytes: [UInt8]) throws {
        statistics = try ProtobufCodec.withDecoded(Openhealth__V1__StatisticsBatch.self, from: bytes) { wire in
            try WireRead.messages(wire.statistics, count: wire.n_statistics).map(StatisticsWire.readResult)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__StatisticsBatch.initialized()
        let built = statistics.map { StatisticsWire.buildResult($0, in: arena) }
        wire.n_statistics = built.count
        wire.statistics = arena.messages(built)
        return ProtobufCodec.encode(wire)
    }
}

/// Conversion of the statistics structs, shared by the messages above.
enum StatisticsWire {
    static func readQuery(_ wire: Openhealth__V1__StatisticsQueryRequest) throws -> StatisticsQuerySpec {
        StatisticsQuerySpec(
            typeIdentifier: WireRead.string(wire.type),
            predicate: try wire.predicate.flatMap { (p) throws(WireDecodeError) in try PredicateWire.read(p.pointee) },
            options: HKStatisticsOptions(rawValue: UInt(wire.options)))
    }

    static func buildQuery(_ spec: StatisticsQuerySpec, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__StatisticsQueryRequest> {
        arena.message { wire in
            wire.type = arena.string(spec.typeIdentifier)
            if let predicate = spec.predicate { wire.predicate = PredicateWire.build(predicate, in: arena) }
            wire.options = UInt32(truncatingIfNeeded: spec.options.rawValue)
        }
    }

    static func readResult(_ wire: Openhealth__V1__Statistics) throws -> StatisticsResult {
        let bySource = try WireRead.messages(wire.by_source, count: wire.n_by_source).map { entry in
            SourceStatistics(source: SourceRecord(bundleIdentifier: WireRead.string(entry.bundle_identifier),
                                                  name: WireRead.string(entry.name)),
                             values: try readValues(entry.values?.pointee))
        }
        return StatisticsResult(span: try span(wire.start_us, wire.end_us), merged: try readValues(wire.merged?.pointee),
                                bySource: bySource)
    }

    static func buildResult(_ result: StatisticsResult, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__Statistics> {
        arena.message { wire in
            wire.start_us = result.span.start
            wire.end_us = result.span.end
            wire.merged = buildValues(result.merged, in: arena)
            let sources = result.bySource.map { entry in
                arena.message { (wire: inout Openhealth__V1__SourceStatistics) in
                    wire.bundle_identifier = arena.string(entry.source.bundleIdentifier)
                    wire.name = arena.string(entry.source.name)
                    wire.values = buildValues(entry.values, in: arena)
                }
            }
            wire.n_by_source = sources.count
            wire.by_source = arena.messages(sources)
        }
    }

    private static func readValues(_ wire: Openhealth__V1__StatisticsValues?) throws -> StatisticsValues {
        guard let wire else { return StatisticsValues() }
        let present = HKStatisticsOptions(rawValue: UInt(wire.present))
        var values = StatisticsValues()
        if present.contains(.cumulativeSum) { values.sum = wire.sum }
        if present.contains(.discreteAverage) { values.average = wire.average }
        if present.contains(.discreteMin) { values.minimum = wire.minimum }
        if present.contains(.discreteMax) { values.maximum = wire.maximum }
        if present.contains(.mostRecent) {
            values.mostRecent = .init(value: wire.most_recent, span: try span(wire.most_recent_start_us, wire.most_recent_end_us))
        }
        if present.contains(.duration) { values.duration = wire.duration_seconds }
        return values
    }

    private static func buildValues(_ values: StatisticsValues, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__StatisticsValues> {
        arena.message { wire in
            var present: HKStatisticsOptions = []
            if let sum = values.sum { present.insert(.cumulativeSum); wire.sum = sum }
            if let average = values.average { present.insert(.discreteAverage); wire.average = average }
            if let minimum = values.minimum { present.insert(.discreteMin); wire.minimum = minimum }
            if let maximum = values.maximum { present.insert(.discreteMax); wire.maximum = maximum }
            if let mostRecent = values.mostRecent {
                present.insert(.mostRecent)
                wire.most_recent = mostRecent.value
                wire.most_recent_start_us = mostRecent.span.start
                wire.most_recent_end_us = mostRecent.span.end
            }
            if let duration = values.duration { present.insert(.duration); wire.duration_seconds = duration }
            wire.present = UInt32(present.rawValue)
        }
    }

    /// A span from a peer: refused, not trapped on, when it ends before it starts.
    private static func span(_ start: Int64, _ end: Int64) throws(WireDecodeError) -> TimeSpan {
        guard start <= end else { throw WireDecodeError.invalidField("a statistics interval ends before it starts") }
        return TimeSpan(start: start, end: end)
    }
}
