import COpenHealthProto
import Foundation
import HealthModel

/// Conversion between `WorkoutValue` and `openhealth.v1.Workout`. Values are carried as given;
/// what they may be is `WorkoutValidator`'s business.
enum WorkoutWire {
    static func build(_ workout: WorkoutValue, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__Workout> {
        arena.message { (wire: inout Openhealth__V1__Workout) in
            wire.activity_type = UInt64(workout.activityType)
            wire.duration = workout.duration
            if let energy = workout.totalEnergyBurned {
                wire.total_energy_burned = QuantityWire.build(energy.value, energy.unit, in: arena)
            }
            if let distance = workout.totalDistance {
                wire.total_distance = QuantityWire.build(distance.value, distance.unit, in: arena)
            }
            let events = workout.events.map { event in
                arena.message { (wire: inout Openhealth__V1__WorkoutEvent) in
                    wire.type = Int64(event.type)
                    wire.start_us = event.startDate.microsecondsSince1970
                    wire.end_us = event.endDate.microsecondsSince1970
                    (wire.n_metadata, wire.metadata) = MetadataWire.buildAll(event.metadata, in: arena)
                }
            }
            wire.n_events = events.count
            wire.events = arena.messages(events)
            WorkoutAdditionsWire.build(workout, into: &wire, in: arena)
        }
    }

    static func read(_ wire: Openhealth__V1__Workout) throws(WireDecodeError) -> WorkoutValue {
        guard let activityType = UInt(exactly: wire.activity_type) else { throw .invalidField("activity type out of range") }
        let events = try WireRead.messages(wire.events, count: wire.n_events).map { (event) throws(WireDecodeError) in
            guard let type = Int(exactly: event.type) else { throw .invalidField("workout event type out of range") }
            return WorkoutEventRecord(type: type, startDate: Date(microsecondsSince1970: event.start_us),
                                      endDate: Date(microsecondsSince1970: event.end_us),
                                      metadata: try MetadataWire.readAll(event.metadata, count: event.n_metadata))
        }
        var workout = WorkoutValue(activityType: activityType, duration: wire.duration,
                                   totalEnergyBurned: wire.total_energy_burned.map { quantity($0.pointee) },
                                   totalDistance: wire.total_distance.map { quantity($0.pointee) }, events: events)
        try WorkoutAdditionsWire.read(wire, into: &workout)
        return workout
    }

    private static func quantity(_ wire: Openhealth__V1__Quantity) -> RecordedQuantity {
        RecordedQuantity(wire.value, unit: WireRead.string(wire.unit))
    }
}

extension MetadataWire {
    /// A repeated MetadataEntry field as a dictionary; a key that appears twice is refused.
    static func readAll(_ entries: UnsafeMutablePointer<UnsafeMutablePointer<Openhealth__V1__MetadataEntry>?>?,
                        count: Int) throws(WireDecodeError) -> [String: MetadataValue] {
        var metadata: [String: MetadataValue] = [:]
        for entry in WireRead.messages(entries, count: count) {
            let key = WireRead.string(entry.key)
            guard metadata[key] == nil else { throw .invalidField("metadata key \(key.prefix(100)) appears twice") }
            metadata[key] = try read(entry)
        }
        return metadata
    }

    static func buildAll(_ metadata: [String: MetadataValue], in arena: WireArena)
        -> (count: Int, entries: UnsafeMutablePointer<UnsafeMutablePointer<Openhealth__V1__MetadataEntry>?>?) {
        let entries = metadata.sorted { $0.key < $1.key }.map { build($0.key, $0.value, in: arena) }
        return (entries.count, arena.messages(entries))
    }
}
