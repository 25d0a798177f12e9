import COpenHealthProto
import Foundation
import HealthModel

/// `openhealth.v1.DateRangePredicate`, the one date-range message: a sample predicate's
/// (`predicateForSamples(withStart:end:options:)`) and a workout activity's
/// (`predicateForWorkoutActivities(start:end:options:)`) are the same four fields.
enum DateRangeWire {
    struct Fields {
        var start: Date?
        var end: Date?
        var strictStart: Bool
        var strictEnd: Bool
    }

    static func build(_ fields: Fields, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__DateRangePredicate> {
        arena.message { (range: inout Openhealth__V1__DateRangePredicate) in
            range.has_start = fields.start == nil ? 0 : 1
            range.start_us = fields.start?.microsecondsSince1970 ?? 0
            range.has_end = fields.end == nil ? 0 : 1
            range.end_us = fields.end?.microsecondsSince1970 ?? 0
            range.strict_start = fields.strictStart ? 1 : 0
            range.strict_end = fields.strictEnd ? 1 : 0
        }
    }

    static func read(_ range: Openhealth__V1__DateRangePredicate) -> Fields {
        Fields(start: range.has_start != 0 ? Date(microsecondsSince1970: range.start_us) : nil,
               end: range.has_end != 0 ? Date(microsecondsSince1970: range.end_us) : nil,
               strictStart: range.strict_start != 0, strictEnd: range.strict_end != 0)
    }
}
