import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Medications and dose events (iOS 26) at the one visibility choke point
/// (`ReadScope.ownAndGrantedObjects`, `SampleSQL.visibility`). Apple: medications are authorized
/// per object, and an app that may read a medication reads its dose events too (WWDC25 "Meet the
/// HealthKit Medications API", developer.apple.com/videos/play/wwdc2025/321). So: without a grant,
/// every read kind answers what a twin store without the medications and doses answers
/// (DESIGN.md §7.3), a predicate naming the hidden medication's concept included; a grant of one
/// medication shows it and its doses — earlier and later ones — and nothing of the other; revoking
/// hides them again.
@Suite(.timeLimit(.minutes(10))) struct MedicationVisibilityTests {
    static let reader = "org.example.reader"
    static let user = SourceRecord(bundleIdentifier: "org.openhealthkit.user", name: "Health")
    static let medicationType = HKDataTypeIdentifierUserAnnotatedMedicationConcept
    static let doseType = HKMedicationDoseEventTypeIdentifierMedicationDoseEvent
    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static let visibility = Visibility(scope: .ownAndGrantedObjects(appID: reader), workouts: .ownSamples(appID: reader),
                                       correlations: .ownSamples(appID: reader))

    static func medication(_ concept: String, at offset: TimeInterval = 0) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: medicationType, startDate: date + offset, endDate: date + offset,
                     value: .userAnnotatedMedication(UserAnnotatedMedicationValue(conceptIdentifier: concept, displayText: concept,
                                                                                  generalForm: "tablet")))
    }

    static func dose(_ concept: String, status: Int = 4, at offset: TimeInterval) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: doseType, startDate: date + offset, endDate: date + offset,
                     value: .medicationDoseEvent(MedicationDoseEventValue(medicationConceptIdentifier: concept, scheduleType: 1,
                                                                          logStatus: status, unit: "count", doseQuantity: 1)))
    }

    /// A store with the reader installed and, when `medications`, two medications the user
    /// entered ("granted-med", "hidden-med") with a dose of each. Returns the database and the
    /// UUID of "granted-med" (a fresh one when there is none).
    static func world(medications: Bool) async throws -> (HealthDatabase, UUID) {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(function: SampleSQL.uuidBlob) }
        let database = try HealthDatabase(writer: try DatabaseQueue(configuration: configuration))
        _ = try database.apps.install(AppManifest(id: reader, displayName: reader, executable: "/usr/bin/true", version: "1",
                                                  readUsageDescription: "r", shareUsageDescription: "s"))
        guard medications else { return (database, UUID()) }
        let saved = try await database.samples.insert([medication("granted-med"), medication("hidden-med", at: 1)], source: user)
        _ = try await database.samples.insert([dose("granted-med", at: 10), dose("hidden-med", status: 5, at: 11)], source: user)
        return (database, saved[0])
    }

    static func installation(_ database: HealthDatabase) throws -> AppInstallation {
        try #require(try database.apps.installation(id: reader))
    }

    /// What the reader learns from each read kind over dose events and medications.
    static func observed(_ database: HealthDatabase) throws -> [String] {
        var result: [String] = []
        for type in [doseType, medicationType] {
            var samples: [SampleRecord] = []
            try database.samples.query(SampleQuerySpec(typeIdentifier: type), scope: visibility) { samples += $0 }
            result.append("\(type) samples \(samples.map(\.value))")
            let sources = try database.samples.sources(of: type, matching: nil, scope: visibility).map(\.bundleIdentifier)
            let changes = try database.changeFeed.changes(of: type, matching: nil, scope: visibility, after: .origin, limit: 0)
            result.append("\(type) sources \(sources) added \(changes.added.map(\.value))")
        }
        for predicate: SamplePredicate in [.medication(.conceptIdentifiers(["hidden-med"])), .medication(.logStatuses([5])),
                                           .not(.medication(.logStatuses([4]))), .medication(.isArchived(false))] {
            for type in [doseType, medicationType] {
                var count = 0
                try database.samples.query(SampleQuerySpec(typeIdentifier: type, predicate: predicate), scope: visibility) { count += $0.count }
                let pending = try database.changeFeed.hasChanges(of: type, matching: predicate, scope: visibility, after: 0).changed
                result.append("\(type) \(predicate): \(count), pending \(pending)")
            }
        }
        return result
    }

    @Test func withoutAGrantEveryReadAnswersAsAStoreWithoutMedications() async throws {
        let (world, _) = try await Self.world(medications: true)
        let (twin, _) = try await Self.world(medications: false)
        #expect(try Self.observed(world) == Self.observed(twin))
    }

    @Test func aMedicationGrantShowsItAndItsDosesOnlyAndRevokingHidesThem() async throws {
        let (world, granted) = try await Self.world(medications: true)
        #expect(try await world.objectGrants.decide(for: Self.installation(world), decided: [granted], allowed: [granted], at: Self.date) == 1)
        var doses: [SampleRecord] = []
        try world.samples.query(SampleQuerySpec(typeIdentifier: Self.doseType), scope: Self.visibility) { doses += $0 }
        #expect(doses.map(\.value) == [Self.dose("granted-med", at: 10).value])
        var medications: [SampleRecord] = []
        try world.samples.query(SampleQuerySpec(typeIdentifier: Self.medicationType), scope: Self.visibility) { medications += $0 }
        #expect(medications.map(\.uuid) == [granted])
        // A dose logged after the grant is visible at once; one for the other medication is not.
        _ = try await world.samples.insert([Self.dose("granted-med", at: 20), Self.dose("hidden-med", at: 21)], source: Self.user)
        doses = []
        try world.samples.query(SampleQuerySpec(typeIdentifier: Self.doseType), scope: Self.visibility) { doses += $0 }
        #expect(doses.count == 2)
        #expect(doses.allSatisfy { if case let .medicationDoseEvent(dose) = $0.value { dose.medicationConceptIdentifier == "granted-med" } else { false } })
        // The anchored feed delivers the granted medication's doses, earlier ones included.
        let changes = try world.changeFeed.changes(of: Self.doseType, matching: nil, scope: Self.visibility, after: .origin, limit: 0)
        #expect(changes.added.count == 2)

        #expect(try await world.objectGrants.revoke(appID: Self.reader, uuids: [granted]) == 1)
        let (bare, _) = try await Self.world(medications: false)
        #expect(try Self.observed(world) == Self.observed(bare))
    }

    /// The feed position of a dose shown by a later grant is the grant's: an anchor taken before
    /// the grant receives the earlier dose with the next batch.
    @Test func aGrantAfterTheAnchorDeliversTheEarlierDosesNext() async throws {
        let (world, granted) = try await Self.world(medications: true)
        let before = try world.changeFeed.changes(of: Self.doseType, matching: nil, scope: Self.visibility, after: .origin, limit: 0)
        #expect(before.added.isEmpty)
        #expect(try await world.objectGrants.decide(for: Self.installation(world), decided: [granted], allowed: [granted], at: Self.date) == 1)
        let after = try world.changeFeed.changes(of: Self.doseType, matching: nil, scope: Self.visibility, after: before.cursor, limit: 0)
        #expect(after.added.map(\.value) == [Self.dose("granted-med", at: 10).value])
    }

    /// Apple: an anchored query's result carries "An array of objects deleted from the HealthKit
    /// store" (developer.apple.com/documentation/healthkit/hkanchoredobjectquerydescriptor/result/deletedobjects)
    /// — the deletions of objects the app could read (HKDeletedObject: "a sample that has been
    /// deleted"). A dose event the reader sees through its medication's grant is reported deleted
    /// once the user deletes it (`healthctl delete`, any deletion path: `ObjectDeleter`); the dose
    /// of a medication it was not granted is not, nor are its earlier doses' deletions made
    /// before the grant — the reader could never see them.
    @Test func aDeletedDoseIsReportedToTheReadersOfItsMedicationOnly() async throws {
        let (world, granted) = try await Self.world(medications: true)
        let early = try await world.samples.insert([Self.dose("granted-med", at: 12)], source: Self.user)
        _ = try await world.samples.deleteAnySource(uuids: early, dryRun: false)
        #expect(try await world.objectGrants.decide(for: Self.installation(world), decided: [granted], allowed: [granted], at: Self.date) == 1)
        let anchor = try world.changeFeed.changes(of: Self.doseType, matching: nil, scope: Self.visibility, after: .origin, limit: 0)
        #expect(anchor.deleted.isEmpty)

        let seen = try await world.samples.insert([Self.dose("granted-med", at: 20)], source: Self.user)
        let unseen = try await world.samples.insert([Self.dose("hidden-med", at: 21)], source: Self.user)
        _ = try await world.samples.deleteAnySource(uuids: seen + unseen, dryRun: false)
        let after = try world.changeFeed.changes(of: Self.doseType, matching: nil, scope: Self.visibility, after: anchor.cursor, limit: 0)
        #expect(after.deleted.map(\.uuid) == seen)
        #expect(after.added.isEmpty)
        // From the beginning: the same one deletion (the one before the grant never was visible).
        let all = try world.changeFeed.changes(of: Self.doseType, matching: nil, scope: Self.visibility, after: .origin, limit: 0)
        #expect(all.deleted.map(\.uuid) == seen)
    }

    /// A deleted dose is reported through its medication's grant; once the user revokes that
    /// medication — by its UUID, or by answering the app's request again without it — the
    /// deletion is reported no more, from the beginning or from an earlier anchor: the app is as
    /// one that never read the medication (DESIGN.md §7.3). The deletion's kept grant names the
    /// medication it came through (v38); before, revoking by UUID left it and the deletion went on
    /// being reported.
    @Test(arguments: [false, true]) func revokingAMedicationTakesItsDeletedDosesAlong(byAnswer: Bool) async throws {
        let (world, granted) = try await Self.world(medications: true)
        #expect(try await world.objectGrants.decide(for: Self.installation(world), decided: [granted], allowed: [granted], at: Self.date) == 1)
        let anchor = try world.changeFeed.changes(of: Self.doseType, matching: nil, scope: Self.visibility, after: .origin, limit: 0)
        let dose = try await world.samples.insert([Self.dose("granted-med", at: 22)], source: Self.user)
        _ = try await world.samples.deleteAnySource(uuids: dose, dryRun: false)
        let reported = try world.changeFeed.changes(of: Self.doseType, matching: nil, scope: Self.visibility, after: anchor.cursor, limit: 0)
        try #require(reported.deleted.map(\.uuid) == dose, "the positive control: the granted medication's deleted dose is reported")

        if byAnswer {
            _ = try await world.objectGrants.decide(for: Self.installation(world), decided: [granted], allowed: [], at: Self.date)
        } else {
            _ = try await world.objectGrants.revoke(appID: Self.reader, uuids: [granted])
        }
        let fromAnchor = try world.changeFeed.changes(of: Self.doseType, matching: nil, scope: Self.visibility, after: anchor.cursor, limit: 0)
        let fromStart = try world.changeFeed.changes(of: Self.doseType, matching: nil, scope: Self.visibility, after: .origin, limit: 0)
        #expect(fromAnchor.deleted.isEmpty && fromStart.deleted.isEmpty,
                "a revoked medication's deleted dose is still reported: \(fromAnchor.deleted.map(\.uuid)) \(fromStart.deleted.map(\.uuid))")
    }

    /// A dose must name a medication the store holds, and a concept is tracked once.
    @Test func aDoseForAnUnknownMedicationAndATwiceTrackedConceptAreRefused() async throws {
        let (world, _) = try await Self.world(medications: true)
        await #expect(throws: HKError.self) { _ = try await world.samples.insert([Self.dose("never-added", at: 30)], source: Self.user) }
        await #expect(throws: HKError.self) { _ = try await world.samples.insert([Self.medication("granted-med", at: 31)], source: Self.user) }
    }

    @Test func archivingChangesTheFlagAndAnUnknownConceptIsRefused() async throws {
        let (world, granted) = try await Self.world(medications: true)
        try await world.samples.setMedicationArchived(conceptIdentifier: "granted-med", archived: true)
        #expect(try await world.objectGrants.decide(for: Self.installation(world), decided: [granted], allowed: [granted], at: Self.date) == 1)
        var archived = 0
        try world.samples.query(SampleQuerySpec(typeIdentifier: Self.medicationType, predicate: .medication(.isArchived(true))),
                                scope: Self.visibility) { archived += $0.count }
        #expect(archived == 1)
        await #expect(throws: HKError.self) { try await world.samples.setMedicationArchived(conceptIdentifier: "nope", archived: true) }
    }
}
