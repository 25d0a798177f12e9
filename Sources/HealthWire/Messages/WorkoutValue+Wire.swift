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
        var strings = RecentWireStrings()
        return try readAll(entries, count: count, strings: &strings)
    }

    /// The one reader of a metadata list (samples, workouts, events, activities): a key seen
    /// twice is refused. Sized once and each key hashed once (`updateValue` answers whether it
    /// was there), where a growing dictionary and a lookup before each insert hashed every key
    /// of every sample two to three times (issue 17); keys a batch repeats come from `strings`.
    static func readAll(_ entries: UnsafeMutablePointer<UnsafeMutablePointer<Openhealth__V1__MetadataEntry>?>?,
                        count: Int, strings: inout RecentWireStrings) throws(WireDecodeError) -> [String: MetadataValue] {
        let messages = WireRead.messages(entries, count: count)
        guard !messages.isEmpty else { return [:] }
        var metadata: [String: MetadataValue] = [:]
        metadata.reserveCapacity(messages.count)
        for (position, entry) in messages.enumerated() {
            let key = strings.key(entry.key, position: position)
            let value: MetadataValue
            do {
                value = try read(entry, key: key)
            } catch {
                // A repeated key is reported first, as when it was looked up before the value.
                guard metadata[key] == nil else { throw .invalidField("metadata key \(key.prefix(100)) appears twice") }
                throw error
            }
            guard metadata.updateValue(value, forKey: key) == nil else {
                throw .invalidField("metadata key \(key.prefix(100)) appears twice")
            }
        }
        return metadata
    }

    static func buildAll(_ metadata: [String: MetadataValue], in arena: WireArena)
        -> (count: Int, entries: UnsafeMutablePointer<UnsafeMutablePointer<Openhealth__V1__MetadataEntry>?>?) {
        let entries = metadata.sorted { $0.key < $1.key }.map { build($0.key, $0.value, in: arena) }
        return (entries.count, arena.messages(entries))
    }
}
