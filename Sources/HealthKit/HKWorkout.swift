public import Foundation

/// A workout, as HealthKit's `HKWorkout`: an activity over a span of time, with its duration,
/// optional energy and distance totals and its events. Saved with `HKHealthStore.save(_:)`;
/// samples recorded during it are linked with `HKHealthStore.add(_:to:)`, and its GPS route
/// with `HKWorkoutRouteBuilder`.
public final class HKWorkout: HKSample, @unchecked Sendable {
    public let workoutActivityType: HKWorkoutActivityType
    /// Seconds of activity: by default the span from start to end minus paused time.
    public let duration: TimeInterval
    public let totalEnergyBurned: HKQuantity?
    public let totalDistance: HKQuantity?
    public let workoutEvents: [HKWorkoutEvent]?
    public let totalSwimmingStrokeCount: HKQuantity?
    public let totalFlightsClimbed: HKQuantity?
    /// iOS 16's activities, in chronological order; empty for a workout of one activity.
    public let workoutActivities: [HKWorkoutActivity]
    /// The statistics the workout builder computed, one per quantity type it collected.
    public let allStatistics: [HKQuantityType: HKStatistics]

    public func statistics(for quantityType: HKQuantityType) -> HKStatistics? { allStatistics[quantityType] }

    public convenience init(activityType workoutActivityType: HKWorkoutActivityType, start startDate: Date, end endDate: Date) {
        self.init(activityType: workoutActivityType, start: startDate, end: endDate, workoutEvents: nil,
                  totalEnergyBurned: nil, totalDistance: nil, device: nil, metadata: nil)
    }

    public convenience init(activityType workoutActivityType: HKWorkoutActivityType, start startDate: Date, end endDate: Date,
                            workoutEvents: [HKWorkoutEvent]?, totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?,
                            metadata: [String: Any]?) {
        self.init(activityType: workoutActivityType, start: startDate, end: endDate, workoutEvents: workoutEvents,
                  totalEnergyBurned: totalEnergyBurned, totalDistance: totalDistance, device: nil, metadata: metadata)
    }

    /// The duration is the span from start to end minus the time between each pause and its
    /// resume (see `WorkoutValue.activeDuration`).
    public convenience init(activityType workoutActivityType: HKWorkoutActivityType, start startDate: Date, end endDate: Date,
                            workoutEvents: [HKWorkoutEvent]?, totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?,
                            device: HKDevice?, metadata: [String: Any]?) {
        let duration = WorkoutValue.activeDuration(start: startDate, end: endDate, events: (workoutEvents ?? []).map(\.record))
        self.init(activityType: workoutActivityType, start: startDate, end: endDate, workoutEvents: workoutEvents,
                  duration: duration, totalEnergyBurned: totalEnergyBurned, totalDistance: totalDistance,
                  device: device, metadata: metadata)
    }

    public convenience init(activityType workoutActivityType: HKWorkoutActivityType, start startDate: Date, end endDate: Date,
                            workoutEvents: [HKWorkoutEvent]?, totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?,
                            totalSwimmingStrokeCount: HKQuantity?, device: HKDevice?, metadata: [String: Any]?) {
        let duration = WorkoutValue.activeDuration(start: startDate, end: endDate, events: (workoutEvents ?? []).map(\.record))
        self.init(activityType: workoutActivityType, start: startDate, end: endDate, workoutEvents: workoutEvents,
                  duration: duration, totalEnergyBurned: totalEnergyBurned, totalDistance: totalDistance,
                  totalSwimmingStrokeCount: totalSwimmingStrokeCount, totalFlightsClimbed: nil, activities: [],
                  statistics: [:], associating: [], device: device, metadata: metadata)
    }

    public convenience init(activityType workoutActivityType: HKWorkoutActivityType, start startDate: Date, end endDate: Date,
                            workoutEvents: [HKWorkoutEvent]?, totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?,
                            totalFlightsClimbed: HKQuantity?, device: HKDevice?, metadata: [String: Any]?) {
        let duration = WorkoutValue.activeDuration(start: startDate, end: endDate, events: (workoutEvents ?? []).map(\.record))
        self.init(activityType: workoutActivityType, start: startDate, end: endDate, workoutEvents: workoutEvents,
                  duration: duration, totalEnergyBurned: totalEnergyBurned, totalDistance: totalDistance,
                  totalSwimmingStrokeCount: nil, totalFlightsClimbed: totalFlightsClimbed, activities: [],
                  statistics: [:], associating: [], device: device, metadata: metadata)
    }

    public convenience init(activityType workoutActivityType: HKWorkoutActivityType, start startDate: Date, end endDate: Date,
                            duration: TimeInterval, totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?,
                            metadata: [String: Any]?) {
        self.init(activityType: workoutActivityType, start: startDate, end: endDate, workoutEvents: nil, duration: duration,
                  totalEnergyBurned: totalEnergyBurned, totalDistance: totalDistance, device: nil, metadata: metadata)
    }

    public convenience init(activityType workoutActivityType: HKWorkoutActivityType, start startDate: Date, end endDate: Date,
                            duration: TimeInterval, totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?,
                            device: HKDevice?, metadata: [String: Any]?) {
        self.init(activityType: workoutActivityType, start: startDate, end: endDate, workoutEvents: nil, duration: duration,
                  totalEnergyBurned: totalEnergyBurned, totalDistance: totalDistance, device: device, metadata: metadata)
    }

    convenience init(activityType: HKWorkoutActivityType, start: Date, end: Date, workoutEvents: [HKWorkoutEvent]?,
                     duration: TimeInterval, totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?,
                     device: HKDevice?, metadata: [String: Any]?) {
        self.init(activityType: activityType, start: start, end: end, workoutEvents: workoutEvents, duration: duration,
                  totalEnergyBurned: totalEnergyBurned, totalDistance: totalDistance, totalSwimmingStrokeCount: nil,
                  totalFlightsClimbed: nil, activities: [], statistics: [:], associating: [], device: device, metadata: metadata)
    }

    /// Every part of a workout, as `HKWorkoutBuilder.finishWorkout` makes it. `associating`:
    /// UUIDs of the app's saved samples to associate with the workout as it is stored.
    init(activityType: HKWorkoutActivityType, start: Date, end: Date, workoutEvents: [HKWorkoutEvent]?,
         duration: TimeInterval, totalEnergyBurned: HKQuantity?, totalDistance: HKQuantity?,
         totalSwimmingStrokeCount: HKQuantity?, totalFlightsClimbed: HKQuantity?, activities: [HKWorkoutActivity],
         statistics: [HKQuantityType: HKStatistics], associating: [UUID], device: HKDevice?, metadata: [String: Any]?) {
        workoutActivityType = activityType
        self.duration = duration
        self.totalEnergyBurned = totalEnergyBurned
        self.totalDistance = totalDistance
        self.workoutEvents = workoutEvents
        self.totalSwimmingStrokeCount = totalSwimmingStrokeCount
        self.totalFlightsClimbed = totalFlightsClimbed
        workoutActivities = activities
        allStatistics = statistics
        let activityRecords = activities.map { activity in
            activity.workoutConfiguration.record(uuid: activity.uuid, start: activity.startDate, end: activity.endDate ?? end,
                                                 metadata: activity.metadataValues ?? [:],
                                                 statistics: WorkoutStatisticsConversion.records(activity.allStatistics))
        }
        let value = WorkoutValue(activityType: activityType.rawValue, duration: duration,
                                 totalEnergyBurned: totalEnergyBurned.map(Self.recorded),
                                 totalDistance: totalDistance.map(Self.recorded),
                                 events: (workoutEvents ?? []).map(\.record),
                                 totalSwimmingStrokeCount: totalSwimmingStrokeCount.map(Self.recorded),
                                 totalFlightsClimbed: totalFlightsClimbed.map(Self.recorded),
                                 activities: activityRecords, statistics: WorkoutStatisticsConversion.records(statistics),
                                 associatedSampleUUIDs: associating)
        super.init(type: HKObjectType.workoutType(), value: .workout(value), start: start, end: end,
                   device: device, metadata: metadata)
    }

    /// Reads an archive (`ArchivedSample`) with its events, activities, totals and statistics.
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), archived.type is HKWorkoutType,
              case let .workout(workout) = archived.record.value,
              let activityType = HKWorkoutActivityType(rawValue: workout.activityType) else { return nil }
        do {
            try self.init(fetched: archived.record, workout, activityType: activityType, parts: archived.parts)
        } catch {
            return nil
        }
    }

    init(fetched record: SampleRecord, _ workout: WorkoutValue, activityType: HKWorkoutActivityType,
         parts: FetchedObjectParts) throws(HKError) {
        workoutActivityType = activityType
        duration = workout.duration
        totalEnergyBurned = workout.totalEnergyBurned.map { HKQuantity(unit: HKUnit(from: $0.unit), doubleValue: $0.value) }
        totalDistance = workout.totalDistance.map { HKQuantity(unit: HKUnit(from: $0.unit), doubleValue: $0.value) }
        workoutEvents = try workout.events.map { (event) throws(HKError) in
            guard let type = HKWorkoutEventType(rawValue: event.type) else {
                throw HKError(.unknownError, "healthd sent a workout event type this SDK does not know; the SDK and healthd versions may not match")
            }
            return HKWorkoutEvent(record: event, type: type)
        }
        let count = { (quantity: RecordedQuantity?) in quantity.map { HKQuantity(unit: HKUnit(from: $0.unit), doubleValue: $0.value) } }
        totalSwimmingStrokeCount = count(workout.totalSwimmingStrokeCount)
        totalFlightsClimbed = count(workout.totalFlightsClimbed)
        let events = workoutEvents ?? []
        workoutActivities = try workout.activities.map { (activity) throws(HKError) in
            guard let converted = HKWorkoutActivity(record: activity, workoutEvents: events) else {
                throw HKError(.unknownError, "healthd sent a workout activity configuration this SDK does not know; the SDK and healthd versions may not match")
            }
            return converted
        }
        allStatistics = WorkoutStatisticsConversion.statistics(workout.statistics)
        super.init(type: HKObjectType.workoutType(), fetched: record, parts: parts)
    }

    /// The first event metadata that could not be converted; `save` throws it.
    var eventMetadataError: HKError? {
        workoutEvents?.lazy.compactMap(\.metadataError).first ?? workoutActivities.lazy.compactMap(\.metadataError).first
    }

    private static func recorded(_ quantity: HKQuantity) -> RecordedQuantity {
        RecordedQuantity(quantity.doubleValue(for: quantity.unit), unit: quantity.unit.unitString)
    }
}
