import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Per-object read grants in the change feed (anchored and observer queries), at the store.
///
/// Apple: "HealthKit reports deleted objects to the anchored object query … for samples that
/// your app has permission to read" (developer.apple.com/documentation/healthkit/hkdeletedobject),
/// and after per-object authorization the app reads the newly shared samples
/// (developer.apple.com/documentation/healthkit/hkhealthstore/requestperobjectreadauthorization(for:predicate:completion:):
/// "the user can then select the individual samples that the app has permission to read").
/// So a grant made after an app's anchor delivers the object with the next batch (and wakes an
/// observer), the deletion of a granted object is reported to the apps that held the grant, and
/// nobody else learns of either. A revoked grant leaves the app as a twin store without the
/// object would (DESIGN.md §7.3): no deletion is ever reported for it.
@Suite(.timeLimit(.minutes(10))) struct ObjectGrantFeedTests {
    typealias World = ObjectGrantVisibilityTests
    static let vision = World.vision
    static let third = "org.example.third"

    static func visibility(_ appID: String) -> Visibility {
        Visibility(scope: .ownAndGrantedObjects(appID: appID), workouts: .ownSamples(appID: appID),
                   correlations: .ownSamples(appID: appID))
    }

    /// `World.world` plus a third installed app, which reads per object too.
    static func world(others: Bool) async throws -> (HealthDatabase, UUID) {
        let (database, hidden) = try await World.world(others: others)
        _ = try database.apps.install(AppManifest(id: third, displayName: third, executable: "/usr/bin/true", version: "1",
                                                  readUsageDescription: "r", shareUsageDescription: "s"))
        return (database, hidden)
    }

    static func grant(_ database: HealthDatabase, _ appID: String, _ uuid: UUID) async throws {
        let installation = try #require(try database.apps.installation(id: appID))
        #expect(try await database.objectGrants.decide(for: installation, decided: [uuid], allowed: [uuid], at: World.date) == 1)
    }

    static func feed(_ database: HealthDatabase, _ appID: String, after cursor: ChangeCursor, limit: Int = 0) throws -> ChangeBatch {
        try database.changeFeed.changes(of: vision, matching: nil, scope: visibility(appID), after: cursor, limit: limit)
    }

    static func delete(_ database: HealthDatabase, _ uuid: UUID) async throws {
        _ = try await database.samples.delete([ObjectReference(typeIdentifier: vision, uuid: uuid)], appID: World.other)
    }

    /// What a reader learns from continuing its feed at `cursor`: added values, deletions, and
    /// whether an observer would fire — no UUIDs or anchors (minted per store).
    static func continued(_ database: HealthDatabase, _ appID: String, after cursor: ChangeCursor) throws -> [String] {
        let batch = try feed(database, appID, after: cursor)
        let pending = try database.changeFeed.hasChanges(of: vision, matching: nil, scope: visibility(appID), after: cursor.change).changed
        return ["added \(batch.added.map(\.value))", "deleted \(batch.deleted.count)", "pending \(pending)"]
    }

    @Test func aGrantAfterTheAnchorDeliversTheObjectOnceAndWakesObservers() async throws {
        let (world, granted) = try await Self.world(others: true)
        let anchor = try Self.feed(world, World.reader, after: .origin)
        #expect(anchor.added.count == 1, "its own prescription only")
        let thirdAnchor = try Self.feed(world, Self.third, after: .origin)
        try await Self.grant(world, World.reader, granted)

        let next = try Self.feed(world, World.reader, after: anchor.cursor)
        #expect(next.added.map(\.uuid) == [granted])
        #expect(next.deleted.isEmpty)
        #expect(try world.changeFeed.hasChanges(of: Self.vision, matching: nil, scope: Self.visibility(World.reader),
                                                after: anchor.cursor.change).changed)
        #expect(try world.changeFeed.hasChanges(of: Self.vision, matching: .uuids([granted]), scope: Self.visibility(World.reader),
                                                after: anchor.cursor.change).changed)
        // Once: the batch after it is empty, and so is a repeated answer granting it again.
        #expect(try Self.feed(world, World.reader, after: next.cursor).added.isEmpty)
        try await Self.grant(world, World.reader, granted)
        #expect(try Self.continued(world, World.reader, after: next.cursor) == ["added []", "deleted 0", "pending false"])
        // Another app's feed does not move with the reader's grant.
        let (twin, _) = try await Self.world(others: false)
        let twinThird = try Self.feed(twin, Self.third, after: .origin)
        #expect(try Self.continued(world, Self.third, after: thirdAnchor.cursor) == Self.continued(twin, Self.third, after: twinThird.cursor))
    }

    /// Stepping with a limit walks the own object at its change and the granted one at its
    /// grant, each once, in that order.
    @Test func aLimitStepsThroughOwnAndGrantedObjectsInFeedOrder() async throws {
        let (world, granted) = try await Self.world(others: true)
        try await Self.grant(world, World.reader, granted)
        var cursor = ChangeCursor.origin
        var seen: [UUID] = []
        for _ in 0..<4 {
            let batch = try Self.feed(world, World.reader, after: cursor, limit: 1)
            seen += batch.added.map(\.uuid)
            cursor = batch.cursor
            if batch.reachedEnd { break }
        }
        #expect(seen.count == 2)
        #expect(seen.last == granted)
        #expect(try Self.feed(world, World.reader, after: cursor).added.isEmpty)
    }

    /// The user granting the app its own prescription changes nothing it reads.
    @Test func aGrantOfTheAppsOwnObjectDeliversNothingAgain() async throws {
        let (world, _) = try await Self.world(others: true)
        let anchor = try Self.feed(world, World.reader, after: .origin)
        let own = try #require(anchor.added.first?.uuid)
        try await Self.grant(world, World.reader, own)
        #expect(try Self.continued(world, World.reader, after: anchor.cursor) == ["added []", "deleted 0", "pending false"])
    }

    @Test func aDeletionIsReportedToTheAppsHoldingAGrantAndToNoOtherApp() async throws {
        let (world, granted) = try await Self.world(others: true)
        try await Self.grant(world, World.reader, granted)
        let anchor = try Self.feed(world, World.reader, after: .origin)
        #expect(anchor.added.map(\.uuid).contains(granted))
        let thirdAnchor = try Self.feed(world, Self.third, after: .origin)
        try await Self.delete(world, granted)

        let next = try Self.feed(world, World.reader, after: anchor.cursor)
        #expect(next.deleted.map(\.uuid) == [granted])
        #expect(next.added.isEmpty)
        #expect(try world.changeFeed.hasChanges(of: Self.vision, matching: nil, scope: Self.visibility(World.reader),
                                                after: anchor.cursor.change).changed)
        // From the start too (an app may ask with no anchor after the deletion).
        #expect(try Self.feed(world, World.reader, after: .origin).deleted.map(\.uuid) == [granted])

        // The third app never could see it: its feed is a twin's without the object, from the
        // start and continued.
        let (twin, _) = try await Self.world(others: false)
        let twinThird = try Self.feed(twin, Self.third, after: .origin)
        #expect(try Self.continued(world, Self.third, after: thirdAnchor.cursor) == Self.continued(twin, Self.third, after: twinThird.cursor))
        #expect(try Self.continued(world, Self.third, after: .origin) == Self.continued(twin, Self.third, after: .origin))
    }

    /// Revoked, then deleted: to the app it is as if the object never existed — nothing reported
    /// when the grant goes, nor when the object does, continued or from the start.
    @Test func aRevokedObjectsDeletionIsNeverReported() async throws {
        let (world, granted) = try await Self.world(others: true)
        try await Self.grant(world, World.reader, granted)
        let anchor = try Self.feed(world, World.reader, after: .origin)
        #expect(anchor.added.count == 2)
        #expect(try await world.objectGrants.revoke(appID: World.reader, uuids: [granted]) == 1)
        let (twin, _) = try await Self.world(others: false)
        let twinAnchor = try Self.feed(twin, World.reader, after: .origin)
        #expect(try Self.continued(world, World.reader, after: anchor.cursor) == Self.continued(twin, World.reader, after: twinAnchor.cursor))
        try await Self.delete(world, granted)
        #expect(try Self.continued(world, World.reader, after: anchor.cursor) == Self.continued(twin, World.reader, after: twinAnchor.cursor))
        #expect(try Self.continued(world, World.reader, after: .origin) == Self.continued(twin, World.reader, after: .origin))
        #expect(try World.observed(world, naming: granted) == World.observed(twin, naming: granted))
    }

    /// Deleted while granted, then revoked (every grant, or this object's by UUID): the
    /// revocation takes the grant kept with the tombstone too, so the app is left as a twin store
    /// without the object leaves it — the deletion is no longer reported, continued or from the
    /// start, nor does an observer fire for it (failed before session 13: the tombstone's grant
    /// outlived `revoke`, and an app that had lost the object was still told of its deletion).
    @Test(arguments: [true, false]) func aGrantRevokedAfterTheDeletionTakesTheDeletionAlong(revokeAll: Bool) async throws {
        let (world, granted) = try await Self.world(others: true)
        try await Self.grant(world, World.reader, granted)
        let anchor = try Self.feed(world, World.reader, after: .origin)
        #expect(anchor.added.count == 2)
        try await Self.delete(world, granted)
        #expect(try Self.feed(world, World.reader, after: anchor.cursor).deleted.map(\.uuid) == [granted], "told while it holds the grant")
        #expect(try await world.objectGrants.revoke(appID: World.reader, uuids: revokeAll ? nil : [granted]) == 1)
        let (twin, _) = try await Self.world(others: false)
        let twinAnchor = try Self.feed(twin, World.reader, after: .origin)
        #expect(try Self.continued(world, World.reader, after: anchor.cursor) == Self.continued(twin, World.reader, after: twinAnchor.cursor))
        #expect(try Self.continued(world, World.reader, after: .origin) == Self.continued(twin, World.reader, after: .origin))
        #expect(try World.observed(world, naming: granted) == World.observed(twin, naming: granted))
    }

    /// The grants kept with a tombstone go with their app: a new installation under the same id
    /// is not told of deletions of objects the old one could read.
    @Test func removingTheAppDropsTheGrantsKeptWithTombstones() async throws {
        let (world, granted) = try await Self.world(others: true)
        try await Self.grant(world, World.reader, granted)
        try await Self.delete(world, granted)
        #expect(try Self.feed(world, World.reader, after: .origin).deleted.map(\.uuid) == [granted])
        #expect(try world.apps.remove(id: World.reader))
        _ = try world.apps.install(AppManifest(id: World.reader, displayName: World.reader, executable: "/usr/bin/true", version: "1",
                                               readUsageDescription: "r", shareUsageDescription: "s"))
        #expect(try Self.feed(world, World.reader, after: .origin).deleted.isEmpty)
    }
}
