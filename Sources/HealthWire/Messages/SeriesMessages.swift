import COpenHealthProto
public import Foundation
public import HealthModel

/// series.proto: heartbeat series and electrocardiogram values inside `Sample`, and the
/// QuerySeriesData request and batches (heartbeats, voltages or a quantity series' quantities).
enum SeriesWire {
    static func build(_ series: HeartbeatSeriesValue, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__HeartbeatSeries> {
        arena.message { (wire: inout Openhealth__V1__HeartbeatSeries) in
            wire.count = UInt64(max(0, series.count))
            if let beats = series.beats {
                wire.n_times_since_start = beats.count
                wire.times_since_start = arena.array(beats.map(\.timeSinceSeriesStart))
                wire.n_preceded_by_gap = beats.count
                wire.preceded_by_gap = arena.array(beats.map { $0.precededByGap ? 1 : 0 })
            }
        }
    }

    static func read(_ wire: Openhealth__V1__HeartbeatSeries) throws(WireDecodeError) -> HeartbeatSeriesValue {
        guard let count = Int(exactly: wire.count) else { throw .invalidField("heartbeat count out of range") }
        guard wire.n_times_since_start == wire.n_preceded_by_gap else {
            throw .invalidField("a heartbeat series needs one gap flag per beat")
        }
        guard wire.n_times_since_start > 0 else { return HeartbeatSeriesValue(count: count) }
        guard wire.n_times_since_start == count else {
            throw .invalidField("a heartbeat series states \(count) beats but holds \(wire.n_times_since_start)")
        }
        let beats = (0..<count).map { index in
            Heartbeat(timeSinceSeriesStart: wire.times_since_start[index], precededByGap: wire.preceded_by_gap[index] != 0)
        }
        return HeartbeatSeriesValue(beats: beats)
    }

    static func build(_ ecg: ElectrocardiogramValue, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__Electrocardiogram> {
        arena.message { (wire: inout Openhealth__V1__Electrocardiogram) in
            wire.classification = Int64(ecg.classification)
            wire.symptoms_status = Int64(ecg.symptomsStatus)
            if let rate = ecg.averageHeartRate {
                wire.has_average_heart_rate = 1
                wire.average_heart_rate = rate
            }
            if let frequency = ecg.samplingFrequency {
                wire.has_sampling_frequency = 1
                wire.sampling_frequency = frequency
            }
            wire.voltage_count = UInt64(max(0, ecg.voltageCount))
            if let voltages = ecg.voltages {
                wire.n_voltages = voltages.count
                wire.voltages = arena.array(voltages)
            }
        }
    }

    static func read(_ wire: Openhealth__V1__Electrocardiogram) throws(WireDecodeError) -> ElectrocardiogramValue {
        guard let classification = Int(exactly: wire.classification), let symptoms = Int(exactly: wire.symptoms_status),
              let count = Int(exactly: wire.voltage_count) else {
            throw .invalidField("electrocardiogram field out of range")
        }
        let voltages: [Double]? = wire.n_voltages > 0 ? Array(UnsafeBufferPointer(start: wire.voltages, count: wire.n_voltages)) : nil
        return ElectrocardiogramValue(classification: classification, symptomsStatus: symptoms,
                                      averageHeartRate: wire.has_average_heart_rate != 0 ? wire.average_heart_rate : nil,
                                      samplingFrequency: wire.has_sampling_frequency != 0 ? wire.sampling_frequency : nil,
                                      voltageCount: count, voltages: voltages)
    }
}

/// SeriesDataRequest: the series sample whose points to stream, and its type.
public struct SeriesDataQuery: WireMessage, Equatable {
    public var sampleUUID: UUID
    public var typeIdentifier: String

    public init(sampleUUID: UUID, typeIdentifier: String) {
        self.sampleUUID = sampleUUID
        self.typeIdentifier = typeIdentifier
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__SeriesDataRequest.self, from: bytes) { wire in
            SeriesDataQuery(sampleUUID: try WireUUID.read(wire.sample_uuid, "series sample uuid"),
                            typeIdentifier: String(WireRead.string(wire.type).prefix(WireLimits.maxMethodNameBytes)))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__SeriesDataRequest.initialized()
        wire.sample_uuid = arena.bytes(sampleUUID.bytes)
        wire.type = arena.string(typeIdentifier)
        return ProtobufCodec.encode(wire)
    }
}

/// SeriesDataBatch: consecutive points of one series from `firstIndex`; `done` on the last.
public struct SeriesPointBatch: WireMessage, Equatable {
    public var firstIndex: Int
    public var points: SeriesPoints
    public var done: Bool

    public init(firstIndex: Int, points: SeriesPoints, done: Bool) {
        self.firstIndex = firstIndex
        self.points = points
        self.done = done
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__SeriesDataBatch.self, from: bytes) { wire in
            guard let first = Int(exactly: wire.first_index) else { throw WireDecodeError.invalidField("first index out of range") }
            guard wire.n_times_since_start == wire.n_preceded_by_gap else {
                throw WireDecodeError.invalidField("a heartbeat batch needs one gap flag per beat")
            }
            guard wire.n_quantity_values == wire.n_quantity_start_us, wire.n_quantity_values == wire.n_quantity_end_us else {
                throw WireDecodeError.invalidField("a quantity batch needs a start and end per quantity")
            }
            let kinds = [wire.n_times_since_start, wire.n_voltages, wire.n_quantity_values].filter { $0 > 0 }.count
            guard kinds <= 1 else { throw WireDecodeError.invalidField("a batch holds beats, voltages or quantities, one kind only") }
            let points: SeriesPoints
            if wire.n_voltages > 0 {
                points = .voltages(Array(UnsafeBufferPointer(start: wire.voltages, count: wire.n_voltages)))
            } else if wire.n_quantity_values > 0 {
                points = .quantities((0..<wire.n_quantity_values).map { index in
                    QuantitySeriesDatum(value: wire.quantity_values[index],
                                        start: Date(microsecondsSince1970: wire.quantity_start_us[index]),
                                        end: Date(microsecondsSince1970: wire.quantity_end_us[index]))
                })
            } else {
                points = .heartbeats((0..<wire.n_times_since_start).map { index in
                    Heartbeat(timeSinceSeriesStart: wire.times_since_start[index], precededByGap: wire.preceded_by_gap[index] != 0)
                })
            }
            return SeriesPointBatch(firstIndex: first, points: points, done: wire.done != 0)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__SeriesDataBatch.initialized()
        wire.first_index = UInt64(max(0, firstIndex))
        switch points {
        case let .heartbeats(beats):
            wire.n_times_since_start = beats.count
            wire.times_since_start = arena.array(beats.map(\.timeSinceSeriesStart))
            wire.n_preceded_by_gap = beats.count
            wire.preceded_by_gap = arena.array(beats.map { $0.precededByGap ? 1 : 0 })
        case let .voltages(voltages):
            wire.n_voltages = voltages.count
            wire.voltages = arena.array(voltages)
        case let .quantities(data):
            wire.n_quantity_values = data.count
            wire.quantity_values = arena.array(data.map(\.value))
            wire.n_quantity_start_us = data.count
            wire.quantity_start_us = arena.array(data.map(\.start.microsecondsSince1970))
            wire.n_quantity_end_us = data.count
            wire.quantity_end_us = arena.array(data.map(\.end.microsecondsSince1970))
        }
        wire.done = done ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}
