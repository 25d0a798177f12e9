import COpenHealthProto
import Foundation
import HealthModel

/// series.proto's `QuantitySeries` (Sample field 40): a quantity sample's series summary, and on
/// save its quantities.
enum QuantitySeriesWire {
    static func build(_ series: QuantitySeries, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__QuantitySeries> {
        arena.message { (wire: inout Openhealth__V1__QuantitySeries) in
            wire.count = UInt64(max(0, series.count))
            wire.minimum = series.minimum
            wire.maximum = series.maximum
            wire.most_recent = series.mostRecent
            wire.most_recent_start_us = series.mostRecentStart.microsecondsSince1970
            wire.most_recent_end_us = series.mostRecentEnd.microsecondsSince1970
            if let data = series.data {
                wire.n_values = data.count
                wire.values = arena.array(data.map(\.value))
                wire.n_start_us = data.count
                wire.start_us = arena.array(data.map(\.start.microsecondsSince1970))
                wire.n_end_us = data.count
                wire.end_us = arena.array(data.map(\.end.microsecondsSince1970))
            }
        }
    }

    /// Bounded: at most `QuantitySeriesRules.maximumCount` quantities are read (more is refused
    /// before any is copied); the three lists must agree with `count`.
    static func read(_ wire: Openhealth__V1__QuantitySeries) throws(WireDecodeError) -> QuantitySeries {
        guard let count = Int(exactly: wire.count), count <= QuantitySeriesRules.maximumCount else {
            throw .invalidField("quantity series count out of range")
        }
        guard wire.n_values == wire.n_start_us, wire.n_values == wire.n_end_us else {
            throw .invalidField("a quantity series needs a start and end per quantity")
        }
        var series = QuantitySeries(count: count, minimum: wire.minimum, maximum: wire.maximum, mostRecent: wire.most_recent,
                                    mostRecentStart: Date(microsecondsSince1970: wire.most_recent_start_us),
                                    mostRecentEnd: Date(microsecondsSince1970: wire.most_recent_end_us))
        guard wire.n_values > 0 else { return series }
        guard wire.n_values == count else {
            throw .invalidField("a quantity series states \(count) quantities but holds \(wire.n_values)")
        }
        series.data = (0..<count).map { index in
            QuantitySeriesDatum(value: wire.values[index], start: Date(microsecondsSince1970: wire.start_us[index]),
                                end: Date(microsecondsSince1970: wire.end_us[index]))
        }
        return series
    }
}
