public import Foundation

/// The checks on a workout's own fields, run by `SampleValidator` for every workout record (the
/// broker's run is authoritative; the SDK runs the same checks early).
///
/// The rules, and where HealthKit's documentation leaves a choice, the one taken:
/// - the activity type is one of `HKWorkoutActivityType`'s raw values;
/// - the duration is finite and between 0 and the span from start to end (1 ms of slack: dates
///   travel in whole microseconds, durations as doubles);
/// - total energy burned has an energy unit, total distance a length unit; both are finite and
///   not negative, and are stored in kcal and m;
/// - at most `SampleLimits.maximumWorkoutEvents` events, in chronological order (by start);
/// - each event's type is one of `HKWorkoutEventType`'s, its interval lies inside the
///   workout's, and only laps and segments have a duration (HealthKit documents those two as the
///   types that "may have nonzero duration"; every other event marks an instant);
/// - pause and resume alternate, starting with a pause (a workout may end paused); motion
///   pause and motion resume alternate the same way, independently (the device's motion
///   detection runs whether or not the user paused). Pause-or-resume requests are free.
/// Messages name the event by its position and type, never a date or value.
enum WorkoutValidator {
    /// How far a duration may exceed the workout's span: the span is computed from dates
    /// rounded to microseconds, the duration from the unrounded ones.
    static let durationSlack: TimeInterval = 0.001

    static func canonicalized(_ workout: WorkoutValue, of record: SampleRecord) throws(HKError) -> WorkoutValue {
        let type = HKWorkoutTypeIdentifier
        guard HKWorkoutActivityType(rawValue: workout.activityType) != nil else {
            throw HKError(.errorInvalidArgument, "\(type): activity type \(workout.activityType) is not an HKWorkoutActivityType raw value")
        }
        let span = record.endDate.timeIntervalSince(record.startDate)
        guard workout.duration.isFinite, workout.duration >= 0, workout.duration <= span + durationSlack else {
            throw HKError(.errorInvalidArgument, "\(type): duration must be between 0 and the time from start to end")
        }
        var result = workout
        result.duration = min(workout.duration, span)
        result.totalEnergyBurned = try canonical(workout.totalEnergyBurned, in: .kilocalorie(), named: "totalEnergyBurned")
        result.totalDistance = try canonical(workout.totalDistance, in: .meter(), named: "totalDistance")
        try checkEvents(workout.events, of: record)
        return try canonicalizedAdditions(result, of: record)
    }

    static func canonical(_ quantity: RecordedQuantity?, in canonicalUnit: HKUnit,
                                  named field: String) throws(HKError) -> RecordedQuantity? {
        guard let quantity else { return nil }
        let unit: HKUnit
        do {
            unit = try HKUnit.parse(quantity.unit)
        } catch {
            throw HKError(.errorInvalidArgument, "\(HKWorkoutTypeIdentifier): \(field) has an invalid unit")
        }
        guard unit.isCompatible(with: canonicalUnit) else {
            throw HKError(.errorInvalidArgument,
                          "\(HKWorkoutTypeIdentifier): \(field) has unit \(quantity.unit.prefix(100)), expected a unit compatible with \(canonicalUnit.unitString)")
        }
        guard quantity.value.isFinite, quantity.value >= 0 else {
            throw HKError(.errorInvalidArgument, "\(HKWorkoutTypeIdentifier): \(field) must be a finite number, not negative")
        }
        // Checked again after conversion: a finite value can overflow in the canonical unit, and
        // the general ceiling keeps sums of workout totals finite (`QuantityValueRanges`).
        let canonical = try HKQuantity(unit: unit, doubleValue: quantity.value).value(in: canonicalUnit)
        guard canonical.isFinite, canonical <= QuantityValueRanges.ceiling else {
            throw HKError(.errorInvalidArgument,
                          "\(HKWorkoutTypeIdentifier): \(field) \(quantity.value) \(quantity.unit.prefix(100)) is outside the allowed range 0 to \(QuantityValueCheck.format(QuantityValueRanges.ceiling)) \(canonicalUnit.unitString)")
        }
        return RecordedQuantity(canonical, unit: canonicalUnit.unitString)
    }

    private static func checkEvents(_ events: [WorkoutEventRecord], of record: SampleRecord) throws(HKError) {
        guard events.count <= SampleLimits.maximumWorkoutEvents else {
            throw HKError(.errorInvalidArgument,
                          "\(HKWorkoutTypeIdentifier): \(events.count) workout events, at most \(SampleLimits.maximumWorkoutEvents) are allowed")
        }
        var userPauses = PauseSequence(pause: .pause, resume: .resume)
        var motionPauses = PauseSequence(pause: .motionPaused, resume: .motionResumed)
        var previousStart: Date?
        let workoutType = ObjectTypeRegistry.workout
        for (index, event) in events.enumerated() {
            let position = index + 1
            guard let type = HKWorkoutEventType(rawValue: event.type) else {
                throw HKError(.errorInvalidArgument,
                              "workout event \(position): type \(event.type) is not an HKWorkoutEventType raw value")
            }
            let name = "workout event \(position) (\(type))"
            guard event.startDate <= event.endDate else {
                throw HKError(.errorInvalidArgument, "\(name): its interval ends before it starts")
            }
            guard event.startDate >= record.startDate, event.endDate <= record.endDate else {
                throw HKError(.errorInvalidArgument, "\(name): its interval must lie inside the workout's start and end")
            }
            if let previousStart, event.startDate < previousStart {
                throw HKError(.errorInvalidArgument, "\(name): events must be in chronological order (by start date)")
            }
            previousStart = event.startDate
            if type != .lap, type != .segment, event.endDate > event.startDate {
                throw HKError(.errorInvalidArgument, "\(name): only lap and segment events may have a duration; this one marks an instant")
            }
            try userPauses.advance(type, name: name)
            try motionPauses.advance(type, name: name)
            do {
                try MetadataValidator.check(event.metadata, of: workoutType, sampleType: nil)
            } catch {
                throw HKError(.errorInvalidArgument, "\(name): \(error.message)")
            }
        }
    }

    /// Pause/resume alternation for one pair of event types.
    private struct PauseSequence {
        let pause: HKWorkoutEventType
        let resume: HKWorkoutEventType
        var paused = false

        mutating func advance(_ type: HKWorkoutEventType, name: String) throws(HKError) {
            if type == pause {
                guard !paused else {
                    throw HKError(.errorInvalidArgument, "\(name): the workout is already paused; a \(resume) must come first")
                }
                paused = true
            } else if type == resume {
                guard paused else {
                    throw HKError(.errorInvalidArgument, "\(name): the workout is not paused; a \(pause) must come first")
                }
                paused = false
            }
        }
    }
}
