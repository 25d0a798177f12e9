import Foundation
import HealthModel
import HealthWire
import TestSupport

/// Objects other than plain samples that both kinds of app save: blood-pressure correlations,
/// workouts with associated samples, and (the hidden app) a workout route, a heartbeat series
/// and a heart-rate quantity series; plus the
/// characteristics the user sets in the hidden world.
extension ProbeData {
    static let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
    static let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
    static let bloodPressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue
    static let bloodType = HKCharacteristicTypeIdentifier.bloodType.rawValue
    static let dateOfBirth = HKCharacteristicTypeIdentifier.dateOfBirth.rawValue

    /// Set by the user (`healthctl characteristics set`) in the hidden world only.
    static let hiddenCharacteristics = [["characteristics", "set", "bloodType", "A+"], ["characteristics", "set", "dateOfBirth", "1984-03-02"]]

    static func bloodPressureReading(_ high: Double, _ low: Double, minute: Int) -> SampleRecord {
        func half(_ type: String, _ value: Double) -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: time(minute), endDate: time(minute), value: .quantity(value, unit: "mmHg"))
        }
        return SampleRecord(uuid: UUID(), typeIdentifier: bloodPressure, startDate: time(minute), endDate: time(minute),
                            value: .correlation([half(systolic, high), half(diastolic, low)]))
    }

    static let effort = HKQuantityTypeIdentifier.workoutEffortScore.rawValue

    static func effortScore(_ score: Double, minute: Int) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: effort, startDate: time(minute), endDate: time(minute),
                     value: .quantity(score, unit: "appleEffortScore"))
    }

    static func workout(_ activity: HKWorkoutActivityType, from start: Int, to end: Int) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: time(start), endDate: time(end),
                     value: .workout(WorkoutValue(activityType: activity.rawValue, duration: Double(end - start) * 60)))
    }

    /// The hidden app's workout: a run with everything a workout builder records — totals, a
    /// pause, workout statistics of heart rate and active energy, and two activities with
    /// statistics of their own — so each workout predicate (`ProbeCatalog.kindPredicates`)
    /// has something hidden to find. The probing apps' own workout (cycling) has none of it.
    static let hiddenWorkout: SampleRecord = {
        var record = workout(.running, from: 0, to: 60)
        func rate(_ value: Double) -> RecordedQuantity { RecordedQuantity(value, unit: "count/s") }
        let heartRates = WorkoutStatisticsRecord(quantityType: heartRate, startDate: time(0), endDate: time(60),
                                                 average: rate(2.5), minimum: rate(1.5), maximum: rate(3))
        let energy = WorkoutStatisticsRecord(quantityType: activeEnergy, startDate: time(0), endDate: time(60),
                                             sum: RecordedQuantity(300, unit: "kcal"))
        let running = WorkoutActivityRecord(
            uuid: UUID(uuidString: "0000A000-0000-4000-8000-000000000001")!, activityType: HKWorkoutActivityType.running.rawValue,
            locationType: HKWorkoutSessionLocationType.outdoor.rawValue, swimmingLocationType: 0, startDate: time(0), endDate: time(30),
            statistics: [WorkoutStatisticsRecord(quantityType: heartRate, startDate: time(0), endDate: time(30), average: rate(2.4))])
        let walking = WorkoutActivityRecord(
            uuid: UUID(uuidString: "0000A000-0000-4000-8000-000000000002")!, activityType: HKWorkoutActivityType.walking.rawValue,
            locationType: HKWorkoutSessionLocationType.outdoor.rawValue, swimmingLocationType: 0, startDate: time(30), endDate: time(60),
            statistics: [WorkoutStatisticsRecord(quantityType: activeEnergy, startDate: time(30), endDate: time(60),
                                                 sum: RecordedQuantity(100, unit: "kcal"))])
        record.value = .workout(WorkoutValue(
            activityType: HKWorkoutActivityType.running.rawValue, duration: 55 * 60,
            totalEnergyBurned: RecordedQuantity(300, unit: "kcal"), totalDistance: RecordedQuantity(5000, unit: "m"),
            events: [WorkoutEventRecord(type: HKWorkoutEventType.pause.rawValue, startDate: time(20), endDate: time(20)),
                     WorkoutEventRecord(type: HKWorkoutEventType.resume.rawValue, startDate: time(25), endDate: time(25))],
            activities: [running, walking], statistics: [heartRates, energy]))
        return record
    }()

    /// The hidden app's correlation, workout (holding one of its heart rate samples) and route.
    static func saveHiddenObjects(through session: ProbeSession, into hidden: inout HiddenObjects) async throws {
        hidden.correlation = try await save([bloodPressureReading(130, 85, minute: 2)], through: session)[0]
        let workout = try await save([hiddenWorkout], through: session)[0]
        hidden.workout = workout
        try await call(.addSamplesToWorkout, WorkoutAssociation(workoutUUID: workout, sampleUUIDs: [hidden.samples[2]]), through: session)
        let builder = UUID()
        let locations = (0..<3).map { RouteLocation(timestamp: time(5 + $0), latitude: 52.5 + Double($0) / 1000, longitude: 13.4) }
        try await call(.insertRouteData, RouteDataChunk(builderID: builder, locations: locations), through: session)
        let finished = try await call(.finishRoute, RouteFinish(builderID: builder, workoutUUID: workout), through: session)
        hidden.route = try FinishedRoute(wire: finished).route.uuid
        hidden.effortScore = try await save([effortScore(8, minute: 58)], through: session)[0]
        _ = try await call(.relateWorkoutEffort, WorkoutEffortRelationChange(sampleUUID: hidden.effortScore, workoutUUID: workout,
                                                                             activityUUID: nil), through: session)
        let beats = (1...5).map { Heartbeat(timeSinceSeriesStart: Double($0) * 0.8, precededByGap: $0 == 3) }
        hidden.heartbeatSeries = try await save([SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierHeartbeatSeries,
                                                              startDate: time(6), endDate: time(7),
                                                              value: .heartbeatSeries(HeartbeatSeriesValue(beats: beats)))],
                                                through: session)[0]
        // A heart-rate quantity series (HKQuantitySeriesSampleBuilder's shape on the wire): its
        // quantities are read apart (QuerySeriesData) and count in statistics one by one.
        let rates = [(8, 72.0), (9, 80.0), (10, 76.0)].map { minute, bpm in
            QuantitySeriesDatum(value: bpm, start: time(minute), end: time(minute).addingTimeInterval(30))
        }
        hidden.quantitySeries = try await save([SampleRecord(
            uuid: UUID(), typeIdentifier: heartRate, startDate: time(8), endDate: time(11), value: .quantity(76, unit: "count/min"),
            quantitySeries: QuantitySeries(count: rates.count, minimum: 72, maximum: 80, mostRecent: 76, mostRecentStart: time(10),
                                           mostRecentEnd: time(10), data: rates))], through: session)[0]
    }

    /// The probing app's correlation and workout (holding its first heart rate sample); returns
    /// their UUIDs in save order, the workout's last.
    static func saveOwnObjects(through session: ProbeSession, firstHeartRate: UUID) async throws -> [UUID] {
        let correlation = try await save([bloodPressureReading(120, 80, minute: 4)], through: session)
        let workout = try await save([workout(.cycling, from: 0, to: 30)], through: session)
        try await call(.addSamplesToWorkout, WorkoutAssociation(workoutUUID: workout[0], sampleUUIDs: [firstHeartRate]), through: session)
        return correlation + workout
    }

    /// A unary call that must succeed; its reply payload.
    @discardableResult
    /// The hidden app rates each probing app's own workout: a relation whose workout the probing
    /// app sees and whose sample it may not — the one grant that decides it is the effort type's.
    /// Relating needs the workout readable to the hidden app, so it holds a workout read grant
    /// for the moment (hidden world only: other apps' grants are not observable, §7.2).
    static func relateHiddenEffort(through session: ProbeSession, toWorkouts workouts: [UUID], in broker: BrokerProcess,
                                   into hidden: inout HiddenObjects) async throws {
        let grant = try await broker.healthctl(["grant", ProbeWorld.hiddenApp, "read", HKWorkoutTypeIdentifier])
        guard grant.status == 0 else { throw CommandFailed(result: grant) }
        hidden.ratingOfOthers = try await save([effortScore(3, minute: 59)], through: session)[0]
        for workout in workouts {
            _ = try await call(.relateWorkoutEffort, WorkoutEffortRelationChange(sampleUUID: hidden.ratingOfOthers, workoutUUID: workout,
                                                                                 activityUUID: nil), through: session)
        }
        let result = try await broker.healthctl(["revoke", ProbeWorld.hiddenApp, "read", HKWorkoutTypeIdentifier])
        guard result.status == 0 else { throw CommandFailed(result: result) }
    }

    static func call(_ method: HealthStoreMethod, _ request: some WireMessage, through session: ProbeSession) async throws -> [UInt8] {
        let answer = try await session.run("unary \(method.rawValue) \(ProbeTranscript.hex(request.wireBytes()))")
        guard let reply = answer.first.flatMap(ProbeTranscript.payload(of:)), answer.count == 1 else {
            throw ProbeFailed(reason: "\(method.rawValue) failed while setting up: \(answer)")
        }
        return reply
    }
}
