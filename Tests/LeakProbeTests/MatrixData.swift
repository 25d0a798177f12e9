import Foundation
import HealthModel
import HealthWire
import TestSupport

/// The leak matrix's data. In both worlds: the other app's heart rate, step and effort score
/// samples, old (years ago) and recent (two days ago, inside a 30-day window), some with
/// metadata or a device; each probing app's own samples and workout, its own effort score
/// related to that workout. In the hidden world only: the other app's workout, old, holding its
/// old samples of both types; its first old effort score related to that workout, and its
/// second related to each probing app's own workout (relations, iOS 18).
enum MatrixData {
    static let otherApp = "org.matrix.other"
    static let metadataKey = "MatrixTag"
    static let deviceName = "Matrix Watch"
    /// Two days before the test process started, on the hour: the same in both worlds.
    static let recentBase: Date = {
        let hour = 3600.0
        return Date(timeIntervalSince1970: ((Date().timeIntervalSince1970 - 2 * 86_400) / hour).rounded(.down) * hour)
    }()

    static func old(_ minutes: Int) -> Date { ProbeData.time(minutes) }
    static func recent(_ minutes: Int) -> Date { recentBase.addingTimeInterval(Double(minutes) * 60) }

    static func sample(_ type: String, at start: Date, _ value: Double, tagged: Bool = false, device: Bool = false) -> SampleRecord {
        let steps = type == ProbeData.steps
        let unit = switch type {
        case ProbeData.steps: "count"
        case ProbeData.effort: "appleEffortScore"
        default: "count/s"
        }
        var record = SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: start.addingTimeInterval(steps ? 600 : 60),
                                  value: .quantity(value, unit: unit))
        if tagged { record.metadata[metadataKey] = .string("x") }
        if device { record.device = DeviceRecord(name: deviceName) }
        return record
    }

    /// The other app's samples, in save order; the first of each type's old ones is what the
    /// hidden workout holds.
    static let otherSamples: [SampleRecord] = [
        sample(ProbeData.heartRate, at: old(0), 1.0), sample(ProbeData.heartRate, at: old(10), 1.1, tagged: true),
        sample(ProbeData.heartRate, at: old(20), 1.2, device: true),
        sample(ProbeData.heartRate, at: recent(0), 1.3), sample(ProbeData.heartRate, at: recent(10), 1.4, tagged: true),
        sample(ProbeData.heartRate, at: recent(20), 1.5, device: true),
        sample(ProbeData.steps, at: old(0), 100), sample(ProbeData.steps, at: old(30), 200, tagged: true),
        sample(ProbeData.steps, at: recent(0), 300, device: true), sample(ProbeData.steps, at: recent(30), 400),
        sample(ProbeData.effort, at: old(0), 5), sample(ProbeData.effort, at: old(40), 7, tagged: true),
        sample(ProbeData.effort, at: recent(0), 6, device: true),
    ]
    /// Indexes into `otherSamples` of the samples the hidden workout holds.
    static let associated = [0, 6]
    /// Indexes into `otherSamples` of the effort score related to the hidden workout, and of the
    /// one related to every probing app's own workout.
    static let effortOnHiddenWorkout = 10
    static let effortOnOwnWorkouts = 11

    /// Each probing app's own samples; its workout (saved after them) holds the first.
    static let ownSamples: [SampleRecord] = [
        sample(ProbeData.heartRate, at: old(5), 1.05, tagged: true), sample(ProbeData.heartRate, at: recent(5), 1.35),
        sample(ProbeData.steps, at: old(5), 50, device: true), sample(ProbeData.effort, at: old(8), 4),
    ]
    /// Index into `ownSamples` of the effort score the app relates to its own workout.
    static let ownEffort = 3

    /// The other app's samples, then its blood-pressure correlation and that correlation's
    /// systolic and diastolic samples (`otherSystolic`).
    static func saveOther(through session: ProbeSession) async throws -> [UUID] {
        try await ProbeData.save(otherSamples, through: session)
            + ProbeData.save([ProbeData.bloodPressureReading(130, 85, minute: 2)], through: session)
    }

    /// Index into the other app's UUIDs of its correlation's systolic sample.
    static var otherSystolic: Int { otherSamples.count + 1 }

    /// The hidden workout: old, holding the other app's first old sample of each type and its
    /// correlation's systolic sample.
    static func saveHiddenWorkout(through session: ProbeSession, otherUUIDs: [UUID]) async throws -> UUID {
        let workout = try await ProbeData.save([ProbeData.workout(.running, from: -10, to: 60)], through: session)[0]
        try await ProbeData.call(.addSamplesToWorkout,
                                 WorkoutAssociation(workoutUUID: workout, sampleUUIDs: (associated + [otherSystolic]).map { otherUUIDs[$0] }),
                                 through: session)
        try await relate(otherUUIDs[effortOnHiddenWorkout], to: workout, through: session)
        return workout
    }

    /// The hidden world's relations of the other app's second old effort score with each probing
    /// app's own workout: a workout the probing app sees with a sample it may not. Relating needs
    /// the workouts readable to the other app, which holds a workout read grant for the moment.
    static func relateToOwnWorkouts(_ workouts: [UUID], through session: ProbeSession, otherUUIDs: [UUID], in broker: BrokerProcess) async throws {
        let grant = try await broker.healthctl(["grant", otherApp, "read", HKWorkoutTypeIdentifier])
        guard grant.status == 0 else { throw CommandFailed(result: grant) }
        for workout in workouts { try await relate(otherUUIDs[effortOnOwnWorkouts], to: workout, through: session) }
        let revoke = try await broker.healthctl(["revoke", otherApp, "read", HKWorkoutTypeIdentifier])
        guard revoke.status == 0 else { throw CommandFailed(result: revoke) }
    }

    static func relate(_ score: UUID, to workout: UUID, through session: ProbeSession) async throws {
        try await ProbeData.call(.relateWorkoutEffort, WorkoutEffortRelationChange(sampleUUID: score, workoutUUID: workout, activityUUID: nil),
                                 through: session)
    }

    /// The probing app's samples and workout (last).
    static func saveOwn(through session: ProbeSession) async throws -> [UUID] {
        let samples = try await ProbeData.save(ownSamples, through: session)
            + ProbeData.save([ProbeData.bloodPressureReading(120, 80, minute: 4)], through: session)
        let workout = try await ProbeData.save([ProbeData.workout(.cycling, from: 0, to: 30)], through: session)
        try await ProbeData.call(.addSamplesToWorkout, WorkoutAssociation(workoutUUID: workout[0], sampleUUIDs: [samples[0]]), through: session)
        try await relate(samples[ownEffort], to: workout[0], through: session)
        return samples + workout
    }
}
