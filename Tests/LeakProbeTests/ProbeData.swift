import Foundation
import HealthModel
import HealthWire

/// The objects the two kinds of app save. Dates are fixed and interleaved, so the hidden
/// samples sit before, between and after the probing app's own ones; all lie years before any
/// test run, hence outside a 30-day window grant.
enum ProbeData {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let base = Date(timeIntervalSince1970: 1_700_000_000)

    /// The types every app of the worlds may save; the probing apps' read grants cover them too.
    static let sharedTypes = [heartRate, steps, systolic, diastolic, HKWorkoutTypeIdentifier, HKWorkoutRouteTypeIdentifier, activeEnergy,
                               HKDataTypeIdentifierHeartbeatSeries, effort]
    /// The sample types the probing apps' read grants name: the shared ones and the ring types no
    /// app may save, which only the hidden world's import brings.
    static let sampleReadTypes = sharedTypes + appleComputedActivityTypes
    /// The user's source order, set in both worlds: the hidden app's steps count first when
    /// sums merge overlapping samples.
    static let sourcePriority = ["sources", "priority", "stepCount", "org.probe.hidden"]

    /// What the probing apps' read grants name: the shared types, activity summaries (readable,
    /// never shareable) and the characteristics.
    static let readTypes = sampleReadTypes + [activitySummary, bloodType, dateOfBirth] + recordReadTypes
    /// The record kinds' types a type-wide read grant names: audiograms, documents and the
    /// clinical types (vision prescriptions are granted per object).
    static let recordReadTypes = [audiogram, cda] + clinicalTypes
    /// The record kinds' types every app of the worlds may save.
    static let recordShareTypes = [audiogram, cda, vision]

    static func time(_ minutes: Int) -> Date { base.addingTimeInterval(Double(minutes) * 60) }

    static func heartRate(_ minute: Int, _ beatsPerSecond: Double, sync: String? = nil, version: Double = 1) -> SampleRecord {
        var metadata: [String: MetadataValue] = [:]
        if let sync {
            metadata[HKMetadataKeySyncIdentifier] = .string(sync)
            metadata[HKMetadataKeySyncVersion] = .number(version)
        }
        return SampleRecord(uuid: UUID(), typeIdentifier: heartRate, startDate: time(minute), endDate: time(minute + 1),
                            value: .quantity(beatsPerSecond, unit: "count/s"), metadata: metadata)
    }

    static func steps(_ minute: Int, _ count: Double, sync: String? = nil, version: Double = 1) -> SampleRecord {
        var record = SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: time(minute), endDate: time(minute + 10),
                                  value: .quantity(count, unit: "count"))
        if let sync {
            record.metadata[HKMetadataKeySyncIdentifier] = .string(sync)
            record.metadata[HKMetadataKeySyncVersion] = .number(version)
        }
        return record
    }

    /// Saved by the hidden app before the probing apps save theirs, and after (one step sample
    /// overlapping the probing apps' own, whose sums the user's source order would merge); then the hidden
    /// app replaces one (sync identifier, version 2) and deletes another, so the store holds its
    /// deleted objects of both kinds too.
    static let hiddenEarly = [heartRate(0, 1.0, sync: "hidden-sync-1"), heartRate(15, 1.1), heartRate(35, 1.2), steps(0, 500)]
    static let hiddenLate = [heartRate(25, 1.3, sync: "hidden-sync-2"), heartRate(60, 1.4), steps(30, 700), steps(12, 300)]
    static let hiddenSyncIdentifiers = ["hidden-sync-1", "hidden-sync-2"]

    /// Saved by every probing app, in two saves; the second replaces `own-sync` (so the app has a
    /// deleted object of its own to see).
    static let ownFirst = [heartRate(10, 1.5), heartRate(30, 1.6), steps(10, 100), heartRate(5, 1.45, sync: "own-sync")]
    static let ownSecond = [heartRate(20, 1.7), heartRate(50, 1.8), heartRate(5, 1.46, sync: "own-sync", version: 2)]

    static func saveHiddenEarly(through session: ProbeSession, into hidden: inout HiddenObjects) async throws {
        hidden.samples += try await save(hiddenEarly, through: session)
    }

    static func saveHiddenLate(through session: ProbeSession, into hidden: inout HiddenObjects) async throws {
        hidden.samples += try await save(hiddenLate, through: session)
        _ = try await save([heartRate(0, 1.05, sync: hiddenSyncIdentifiers[0], version: 2)], through: session)
        let deletion = ObjectDeletion([ObjectReference(typeIdentifier: heartRate, uuid: hidden.samples[1])])
        let answer = try await session.run("unary \(HealthStoreMethod.deleteObjects.rawValue) \(ProbeTranscript.hex(deletion.wireBytes()))")
        guard answer == ["reply \(ProbeTranscript.hex(DeletedCount(1).wireBytes()))"] else {
            throw ProbeFailed(reason: "the hidden app could not delete its sample: \(answer)")
        }
    }

    /// The probing app's set-up saves; returns its UUIDs in save order.
    static func saveOwn(through session: ProbeSession) async throws -> [UUID] {
        let samples = try await save(ownFirst, through: session) + save(ownSecond, through: session)
        // Right after the samples: `ownPrescription` finds it there.
        let prescription = try await save([prescription(-1, minute: 45)], through: session)
        let activity = try await save(ownActivity, through: session)
        // Right after the activity samples: `ownEffortScore` finds it there.
        let effortScore = try await save([effortScore(6, minute: 52)], through: session)
        // The workout stays last: `ProbeWorld` takes the last UUID as the app's own workout.
        return try await samples + prescription + activity + effortScore + saveOwnObjects(through: session, firstHeartRate: samples[0])
    }

    /// The probing app's own workout effort score among its set-up UUIDs (`saveOwn`'s order).
    static func ownEffortScore(_ own: [UUID]) -> UUID {
        let index = ownFirst.count + ownSecond.count + 1 + ownActivity.count
        return own.indices.contains(index) ? own[index] : UUID()
    }

    /// The probing app's own vision prescription among its set-up UUIDs (`saveOwn`'s order).
    static func ownPrescription(_ own: [UUID]) -> UUID? {
        let index = ownFirst.count + ownSecond.count
        return own.indices.contains(index) ? own[index] : nil
    }

    static func save(_ records: [SampleRecord], through session: ProbeSession) async throws -> [UUID] {
        let answer = try await session.run("unary \(HealthStoreMethod.save.rawValue) \(ProbeTranscript.hex(SampleList(records).wireBytes()))")
        let uuids = ProbeTranscript.savedUUIDs(answer)
        guard uuids.count >= records.count else { throw ProbeFailed(reason: "a save was refused: \(answer)") }
        return uuids
    }
}

/// The hidden app's objects, by role, as the hidden world's broker assigned them. The control
/// world is probed with the same values, which name nothing there.
struct HiddenObjects: Sendable {
    /// Its samples of `ProbeData.hiddenEarly` and `hiddenLate`, in save order (the first and
    /// second are deleted by the time anything is probed).
    var samples: [UUID] = []
    /// Its blood-pressure correlation.
    var correlation = UUID()
    /// Its workout, holding its third heart rate sample.
    var workout = UUID()
    /// The route of that workout.
    var route = UUID()
    /// Its workout effort score, related to its workout (iOS 18's relateWorkoutEffortSample).
    var effortScore = UUID()
    /// Its effort score related to every probing app's own workout (`relateHiddenEffort`).
    var ratingOfOthers = UUID()
    /// Its heartbeat series.
    var heartbeatSeries = UUID()
    /// Its heart-rate quantity series (count 3).
    var quantitySeries = UUID()
    /// Its audiogram.
    var audiogram = UUID()
    /// Its three CDA documents, in save order.
    var documents: [UUID] = []
    /// Its vision prescription.
    var prescription = UUID()
    /// The allergy record the user imported (clinical records have no app source).
    var clinicalRecord = UUID()

    func containsPrescription(_ uuid: UUID) -> Bool { uuid == prescription }
}
