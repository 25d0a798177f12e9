import Foundation
import HealthModel
import HealthWire

/// The leak matrix's data. In both worlds: the other app's heart rate and step samples, old
/// (years ago) and recent (two days ago, inside a 30-day window), some with metadata or a
/// device; each probing app's own samples and workout. In the hidden world only: the other
/// app's workout, old, holding its old samples of both types.
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
        var record = SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: start.addingTimeInterval(steps ? 600 : 60),
                                  value: .quantity(value, unit: steps ? "count" : "count/s"))
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
    ]
    /// Indexes into `otherSamples` of the samples the hidden workout holds.
    static let associated = [0, 6]

    /// Each probing app's own samples; its workout (saved after them) holds the first.
    static let ownSamples: [SampleRecord] = [
        sample(ProbeData.heartRate, at: old(5), 1.05, tagged: true), sample(ProbeData.heartRate, at: recent(5), 1.35),
        sample(ProbeData.steps, at: old(5), 50, device: true),
    ]

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
        return workout
    }

    /// The probing app's samples and workout (last).
    static func saveOwn(through session: ProbeSession) async throws -> [UUID] {
        let samples = try await ProbeData.save(ownSamples, through: session)
            + ProbeData.save([ProbeData.bloodPressureReading(120, 80, minute: 4)], through: session)
        let workout = try await ProbeData.save([ProbeData.workout(.cycling, from: 0, to: 30)], through: session)
        try await ProbeData.call(.addSamplesToWorkout, WorkoutAssociation(workoutUUID: workout[0], sampleUUIDs: [samples[0]]), through: session)
        return samples + workout
    }
}
