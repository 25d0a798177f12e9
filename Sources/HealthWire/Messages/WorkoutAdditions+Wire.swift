import COpenHealthProto
import Foundation
import HealthModel

/// Conversion of the workout builder's additions to `openhealth.v1.Workout` (fields 20–24):
/// totals in count, activities, statistics and the samples to associate. Carried as given;
/// `WorkoutValidator` decides what they may be. Counts are bounded here before anything is
/// built from them, so a hostile frame cannot make the broker convert millions of entries.
enum WorkoutAdditionsWire {
    static func build(_ workout: WorkoutValue, into wire: inout Openhealth__V1__Workout, in arena: WireArena) {
        if let strokes = workout.totalSwimmingStrokeCount {
            wire.total_swimming_stroke_count = QuantityWire.build(strokes.value, strokes.unit, in: arena)
        }
        if let flights = workout.totalFlightsClimbed {
            wire.total_flights_climbed = QuantityWire.build(flights.value, flights.unit, in: arena)
        }
        let activities = workout.activities.map { build($0, in: arena) }
        wire.n_activities = activities.count
        wire.activities = arena.messages(activities)
        (wire.n_statistics, wire.statistics) = buildAll(workout.statistics, in: arena)
        let uuids = workout.associatedSampleUUIDs.map { arena.bytes($0.bytes) }
        wire.n_associated_sample_uuids = uuids.count
        wire.associated_sample_uuids = arena.array(uuids)
    }

    static func read(_ wire: Openhealth__V1__Workout, into workout: inout WorkoutValue) throws(WireDecodeError) {
        workout.totalSwimmingStrokeCount = wire.total_swimming_stroke_count.map { quantity($0.pointee) }
        workout.totalFlightsClimbed = wire.total_flights_climbed.map { quantity($0.pointee) }
        guard wire.n_activities <= SampleLimits.maximumWorkoutActivities else {
            throw .invalidField("more than \(SampleLimits.maximumWorkoutActivities) workout activities")
        }
        guard wire.n_associated_sample_uuids <= SampleLimits.maximumWorkoutAssociations else {
            throw .invalidField("more than \(SampleLimits.maximumWorkoutAssociations) samples to associate with a workout")
        }
        workout.activities = try WireRead.messages(wire.activities, count: wire.n_activities).map { (activity) throws(WireDecodeError) in
            try read(activity)
        }
        workout.statistics = try readAll(wire.statistics, count: wire.n_statistics)
        workout.associatedSampleUUIDs = try WireUUID.readAll(wire.associated_sample_uuids, count: wire.n_associated_sample_uuids)
    }

    private static func build(_ activity: WorkoutActivityRecord, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__WorkoutActivity> {
        arena.message { (wire: inout Openhealth__V1__WorkoutActivity) in
            wire.uuid = arena.bytes(activity.uuid.bytes)
            wire.activity_type = UInt64(activity.activityType)
            wire.location_type = Int64(activity.locationType)
            wire.swimming_location_type = Int64(activity.swimmingLocationType)
            if let lap = activity.lapLength { wire.lap_length = QuantityWire.build(lap.value, lap.unit, in: arena) }
            wire.start_us = activity.startDate.microsecondsSince1970
            wire.end_us = activity.endDate.microsecondsSince1970
            (wire.n_metadata, wire.metadata) = MetadataWire.buildAll(activity.metadata, in: arena)
            (wire.n_statistics, wire.statistics) = buildAll(activity.statistics, in: arena)
        }
    }

    private static func read(_ wire: Openhealth__V1__WorkoutActivity) throws(WireDecodeError) -> WorkoutActivityRecord {
        guard let activityType = UInt(exactly: wire.activity_type) else { throw .invalidField("workout activity type out of range") }
        guard let location = Int(exactly: wire.location_type), let swimming = Int(exactly: wire.swimming_location_type) else {
            throw .invalidField("workout activity location type out of range")
        }
        return WorkoutActivityRecord(
            uuid: try WireUUID.read(wire.uuid, "workout activity uuid"), activityType: activityType,
            locationType: location, swimmingLocationType: swimming,
            lapLength: wire.lap_length.map { quantity($0.pointee) },
            startDate: Date(microsecondsSince1970: wire.start_us), endDate: Date(microsecondsSince1970: wire.end_us),
            metadata: try MetadataWire.readAll(wire.metadata, count: wire.n_metadata),
            statistics: try readAll(wire.statistics, count: wire.n_statistics))
    }

    private static func buildAll(_ statistics: [WorkoutStatisticsRecord], in arena: WireArena)
        -> (Int, UnsafeMutablePointer<UnsafeMutablePointer<Openhealth__V1__WorkoutStatistics>?>?) {
        let built = statistics.map { statistic in
            arena.message { (wire: inout Openhealth__V1__WorkoutStatistics) in
                wire.quantity_type = arena.string(statistic.quantityType)
                wire.start_us = statistic.startDate.microsecondsSince1970
                wire.end_us = statistic.endDate.microsecondsSince1970
                let build = { (quantity: RecordedQuantity?) in quantity.map { QuantityWire.build($0.value, $0.unit, in: arena) } }
                wire.sum = build(statistic.sum)
                wire.average = build(statistic.average)
                wire.minimum = build(statistic.minimum)
                wire.maximum = build(statistic.maximum)
                wire.most_recent = build(statistic.mostRecent)
            }
        }
        return (built.count, arena.messages(built))
    }

    private static func readAll(_ pointer: UnsafeMutablePointer<UnsafeMutablePointer<Openhealth__V1__WorkoutStatistics>?>?,
                                count: Int) throws(WireDecodeError) -> [WorkoutStatisticsRecord] {
        guard count <= SampleLimits.maximumWorkoutStatistics else {
            throw .invalidField("more than \(SampleLimits.maximumWorkoutStatistics) workout statistics")
        }
        return WireRead.messages(pointer, count: count).map { wire in
            WorkoutStatisticsRecord(quantityType: WireRead.string(wire.quantity_type),
                                    startDate: Date(microsecondsSince1970: wire.start_us),
                                    endDate: Date(microsecondsSince1970: wire.end_us),
                                    sum: wire.sum.map { quantity($0.pointee) }, average: wire.average.map { quantity($0.pointee) },
                                    minimum: wire.minimum.map { quantity($0.pointee) }, maximum: wire.maximum.map { quantity($0.pointee) },
                                    mostRecent: wire.most_recent.map { quantity($0.pointee) })
        }
    }

    private static func quantity(_ wire: Openhealth__V1__Quantity) -> RecordedQuantity {
        RecordedQuantity(wire.value, unit: WireRead.string(wire.unit))
    }
}
