import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Per-object read grants at the one visibility choke point (`ReadScope.ownAndGrantedObjects`,
/// `SampleSQL.visibility`): HealthKit lets an app read exactly the vision prescriptions the user
/// picked (developer.apple.com/documentation/healthkit/hkhealthstore/requestperobjectreadauthorization(for:predicate:completion:)).
/// Without a grant, every read kind answers what a twin store without the other app's
/// prescriptions answers (DESIGN.md §7.3), a UUID predicate naming a hidden one included; with a
/// grant for one, that one appears and its sibling stays hidden; revoking, deleting the object
/// and removing the app each end the grant.
@Suite(.timeLimit(.minutes(10))) struct ObjectGrantVisibilityTests {
    static let reader = "org.example.reader"
    static let other = "org.example.other"
    static let vision = HKVisionPrescriptionTypeIdentifier
    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static let visibility = Visibility(scope: .ownAndGrantedObjects(appID: reader), workouts: .ownSamples(appID: reader),
                                       correlations: .ownSamples(appID: reader))

    static func prescription(_ sphere: Double) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: vision, startDate: date, endDate: date,
                     value: .visionPrescription(VisionPrescriptionValue(kind: 1, hasLenses: true, expirationDate: nil,
                                                                        rightEye: LensSpecificationValue(sphere: sphere))))
    }

    /// A store holding the reader's own prescription and, when `others`, two of another app's
    /// (one of them deleted again, so the deleted-objects table holds another app's row too).
    /// Returns the database and the other app's surviving prescription's UUID (a fresh one when
    /// there is none, to name in predicates).
    static func world(others: Bool) async throws -> (HealthDatabase, UUID) {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(function: SampleSQL.uuidBlob) }
        let database = try HealthDatabase(writer: try DatabaseQueue(configuration: configuration))
        for id in [reader, other] {
            _ = try database.apps.install(AppManifest(id: id, displayName: id, executable: "/usr/bin/true", version: "1",
                                                      readUsageDescription: "r", shareUsageDescription: "s"))
        }
        _ = try await database.samples.insert([prescription(-1)], source: SourceRecord(bundleIdentifier: reader, name: "Reader"))
        guard others else { return (database, UUID()) }
        let saved = try await database.samples.insert([prescription(-2), prescription(-3)], source: SourceRecord(bundleIdentifier: other, name: "Other"))
        _ = try await database.samples.delete([ObjectReference(typeIdentifier: vision, uuid: saved[1])], appID: other)
        return (database, saved[0])
    }

    /// The reader's installation in `database`, which the grants are bound to.
    static func installation(_ database: HealthDatabase) throws -> AppInstallation {
        try #require(try database.apps.installation(id: reader))
    }

    /// What the reader learns from each read kind, UUIDs left out (they are minted per store).
    static func observed(_ database: HealthDatabase, naming hidden: UUID) throws -> [String] {
        var samples: [SampleRecord] = []
        try database.samples.query(SampleQuerySpec(typeIdentifier: vision), scope: visibility) { samples += $0 }
        var named = 0
        try database.samples.query(SampleQuerySpec(typeIdentifier: vision, predicate: .uuids([hidden])), scope: visibility) { named += $0.count }
        let sources = try database.samples.sources(of: vision, matching: nil, scope: visibility).map(\.bundleIdentifier)
        let changes = try database.changeFeed.changes(of: vision, matching: nil, scope: visibility, after: .origin, limit: 0)
        let pending = try database.changeFeed.hasChanges(of: vision, matching: .uuids([hidden]), scope: visibility, after: 0).changed
        return ["samples \(samples.map(\.value))", "named \(named)", "sources \(sources)",
                "added \(changes.added.map(\.value))", "deleted \(changes.deleted.count)", "named pending \(pending)"]
    }

    @Test func withoutAGrantEveryReadAnswersAsAStoreWithoutTheOtherAppsPrescriptions() async throws {
        let (world, hidden) = try await Self.world(others: true)
        let (twin, _) = try await Self.world(others: false)
        #expect(try Self.observed(world, naming: hidden) == Self.observed(twin, naming: hidden))
    }

    @Test func aGrantShowsThatObjectOnlyAndRevokingHidesItAgain() async throws {
        let (world, granted) = try await Self.world(others: true)
        let (twin, _) = try await Self.world(others: false)
        #expect(try await world.objectGrants.decide(for: Self.installation(world), decided: [granted], allowed: [granted], at: Self.date) == 1)
        var samples: [SampleRecord] = []
        try world.samples.query(SampleQuerySpec(typeIdentifier: Self.vision), scope: Self.visibility) { samples += $0 }
        #expect(samples.map(\.uuid).contains(granted))
        #expect(samples.count == 2, "own and granted, not the deleted sibling")
        #expect(try world.samples.sources(of: Self.vision, matching: nil, scope: Self.visibility).map(\.bundleIdentifier).sorted()
                == [Self.other, Self.reader])
        #expect(try await world.objectGrants.granted(appID: Self.reader) == [granted])
        // Another app's grant is not the reader's.
        #expect(try await world.objectGrants.granted(appID: Self.other).isEmpty)

        #expect(try await world.objectGrants.revoke(appID: Self.reader, uuids: [granted]) == 1)
        #expect(try Self.observed(world, naming: granted) == Self.observed(twin, naming: granted))
    }

    /// Deciding again replaces the decision for the objects decided (allowed → granted, the
    /// others → removed); a UUID that is not a per-object type's object is skipped.
    @Test func aLaterAnswerReplacesTheDecisionForTheObjectsItDecides() async throws {
        let (world, granted) = try await Self.world(others: true)
        try await world.objectGrants.decide(for: Self.installation(world), decided: [granted], allowed: [granted], at: Self.date)
        let unknown = UUID()
        #expect(try await world.objectGrants.decide(for: Self.installation(world), decided: [granted, unknown], allowed: [unknown], at: Self.date) == 0)
        #expect(try await world.objectGrants.granted(appID: Self.reader).isEmpty)
    }

    @Test func deletingTheObjectOrRemovingTheAppEndsTheGrant() async throws {
        let (world, granted) = try await Self.world(others: true)
        try await world.objectGrants.decide(for: Self.installation(world), decided: [granted], allowed: [granted], at: Self.date)
        #expect(try world.apps.remove(id: Self.reader))
        let rows = { () async throws -> Int in try await world.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM object_read_grants") ?? -1 } }
        #expect(try await rows() == 0)

        let (other, uuid) = try await Self.world(others: true)
        try await other.objectGrants.decide(for: Self.installation(other), decided: [uuid], allowed: [uuid], at: Self.date)
        _ = try await other.samples.delete([ObjectReference(typeIdentifier: Self.vision, uuid: uuid)], appID: Self.other)
        #expect(try await other.objectGrants.granted(appID: Self.reader).isEmpty)
    }

    /// An answer is bound to the installation that asked: when the app was removed and the same
    /// id installed again before the answer was stored, nothing is granted and the new
    /// installation reads nothing of the other app's; an in-place update keeps the binding.
    @Test func anAnswerForARemovedInstallationGrantsNothingToTheNextOne() async throws {
        let (world, hidden) = try await Self.world(others: true)
        let asked = try Self.installation(world)
        let reader = AppManifest(id: Self.reader, displayName: Self.reader, executable: "/usr/bin/true", version: "2",
                                 readUsageDescription: "r", shareUsageDescription: "s")
        // An update in place: still the installation that asked.
        _ = try world.apps.install(reader, at: Self.date.addingTimeInterval(60))
        #expect(try await world.objectGrants.decide(for: asked, decided: [hidden], allowed: [hidden], at: Self.date) == 1)
        _ = try await world.objectGrants.revoke(appID: Self.reader, uuids: nil)

        #expect(try world.apps.remove(id: Self.reader))
        _ = try world.apps.install(reader, at: Self.date.addingTimeInterval(120))
        await #expect {
            try await world.objectGrants.decide(for: asked, decided: [hidden], allowed: [hidden], at: Self.date)
        } throws: { error in
            (error as? HKError)?.code == .errorInvalidArgument && (error as? HKError)?.message.contains("must ask again") == true
        }
        #expect(try await world.objectGrants.granted(appID: Self.reader).isEmpty)
        var samples: [SampleRecord] = []
        try world.samples.query(SampleQuerySpec(typeIdentifier: Self.vision), scope: Self.visibility) { samples += $0 }
        #expect(!samples.map(\.uuid).contains(hidden))
        // Removed and not installed again: refused too.
        #expect(try world.apps.remove(id: Self.reader))
        await #expect(throws: HKError.self) {
            try await world.objectGrants.decide(for: asked, decided: [hidden], allowed: [hidden], at: Self.date)
        }
    }
}
