import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Attachments of an object the app could read and then lost (session 13 red team), at the store.
/// DESIGN.md §7.6: a revoked permission takes effect at once; §7.3: no answer depends on data the
/// app cannot read. So a read under way ends at the next chunk once the object is hidden (grant
/// revoked), gone (deleted) or the attachment removed — the same errorNoData a missing one gets —
/// and the room an app has left for its attachments counts only attachments on objects it can
/// read now, so the deletion of an object it lost cannot be told from the room.
///
/// The interruptions are written from inside the reader's chunk callback: that works only when no
/// read is open around the callback (with one open, the store's queue refuses the reentrant write
/// and the test traps — the read would have been holding one snapshot for every chunk).
@Suite(.timeLimit(.minutes(10))) struct AttachmentLostAccessTests {
    typealias Store = AttachmentRepositoryTests
    static let reader = "org.example.reader"
    static let owner = Store.owner.bundleIdentifier
    static let vision = Store.vision
    static let granted = ReadScope.ownAndGrantedObjects(appID: reader)

    /// A store holding the owner's prescription, granted to the reader; returns the database and
    /// the prescription.
    static func world() async throws -> (database: HealthDatabase, object: UUID) {
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(function: SampleSQL.uuidBlob) }
        let database = try HealthDatabase(writer: try DatabaseQueue(configuration: configuration))
        for id in [reader, owner] {
            _ = try database.apps.install(AppManifest(id: id, displayName: id, executable: "/usr/bin/true", version: "1",
                                                      readUsageDescription: "r", shareUsageDescription: "s"))
        }
        let object = try await database.samples.insert([Store.prescription()], source: Store.owner)[0]
        let installation = try #require(try database.apps.installation(id: reader))
        #expect(try await database.objectGrants.decide(for: installation, decided: [object], allowed: [object], at: Store.date) == 1)
        return (database, object)
    }

    /// What the user or the owner does while the reader is between two chunks.
    enum Interruption: String, CaseIterable, CustomTestStringConvertible {
        case nothing, grantRevoked, objectDeleted, attachmentRemoved
        var testDescription: String { rawValue }

        /// Done synchronously, from inside the reader's chunk callback, as its own committed write.
        func happen(_ database: HealthDatabase, object: UUID, attachment: UUID) throws {
            try database.writer.write { db in
                switch self {
                case .nothing:
                    break
                case .grantRevoked:
                    // What `ObjectGrantRepository.revoke` writes.
                    try db.execute(sql: "DELETE FROM object_read_grants WHERE app_id = ?", arguments: [AttachmentLostAccessTests.reader])
                case .objectDeleted:
                    guard let row = try Int64.fetchOne(db, sql: "SELECT id FROM objects WHERE uuid = ?", arguments: [object]) else {
                        throw StoreIntegrityError.attachmentChunks
                    }
                    try ObjectDeleter.deleteAndRecord(db, rowID: row, change: try ObjectDeleter.nextChange(db))
                case .attachmentRemoved:
                    try db.execute(sql: "DELETE FROM attachments WHERE uuid = ?", arguments: [attachment])
                }
            }
        }
    }

    /// A granted reader reads a four-chunk attachment; after the first chunk arrives, the
    /// `interruption` commits. It gets that chunk and then errorNoData — never the chunks after
    /// (failed before session 13: the read streamed from one snapshot, so a reader that lost the
    /// object, or stalled before losing it, still received every byte).
    @Test(arguments: Interruption.allCases)
    func aReadUnderWayEndsAtTheNextChunkOnceTheAttachmentIsHidden(_ interruption: Interruption) async throws {
        let (database, object) = try await Self.world()
        let bytes = (0..<(3 * AttachmentLimits.chunkBytes + 17)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }
        let attachment = try await Store.add(bytes, to: object, database).identifier
        var received: [UInt8] = []
        var chunks = 0
        let failure = await Store.failure {
            try database.attachments.readData(attachmentID: attachment, objectUUID: object, typeIdentifier: Self.vision,
                                              scope: Self.granted) { _, data, _, _ in
                received += data
                chunks += 1
                if chunks == 1 { try interruption.happen(database, object: object, attachment: attachment) }
            }
        }
        if interruption == .nothing {
            #expect(failure == nil)
            #expect(received == bytes)
        } else {
            let missing = await Store.failure {
                _ = try Store.read(attachment, of: UUID(), database, scope: Self.granted)
            }
            #expect(failure != nil, "the read went on after the attachment was hidden: \(chunks) chunks")
            #expect(failure == missing, "ends as a missing attachment does")
            #expect(received == Array(bytes.prefix(AttachmentLimits.chunkBytes)))
        }
    }

    /// The reader attached a file to the owner's prescription while it held the grant, then lost
    /// the grant; in one twin the owner then deletes the prescription (its attachments go with
    /// it). The reader's room for attachments must be the same in both, and so must its answer to
    /// an upload that fits only when nothing on a hidden object is counted (failed before session
    /// 13: the 1,000 bytes on the hidden prescription counted until the owner deleted it, so the
    /// refusal told the reader of the deletion).
    @Test func theRoomAnAppHasLeftDoesNotDependOnAnObjectItCanNoLongerRead() async throws {
        func answer(ownerDeletesTheObject: Bool) async throws -> String? {
            let (database, object) = try await Self.world()
            try await Store.add(Array(repeating: 7, count: 1_000), to: object, database, appID: Self.reader, scope: Self.granted)
            #expect(try await database.objectGrants.revoke(appID: Self.reader, uuids: nil) == 1)
            if ownerDeletesTheObject {
                _ = try await database.samples.delete([ObjectReference(typeIdentifier: Self.vision, uuid: object)], appID: Self.owner)
            }
            let own = try await database.samples.insert([Store.prescription()],
                                                        source: SourceRecord(bundleIdentifier: Self.reader, name: "Reader"))[0]
            return await Store.failure {
                _ = try await database.attachments.beginUpload(Store.start(own, size: AttachmentLimits.maximumBytesPerApp),
                                                               appID: Self.reader, scope: Self.granted, now: Date())
            }
        }
        let kept = try await answer(ownerDeletesTheObject: false)
        let deleted = try await answer(ownerDeletesTheObject: true)
        #expect(kept == deleted, "the room depends on the hidden object: \(String(describing: kept)) vs \(String(describing: deleted))")
        #expect(kept == nil, "only attachments on objects the app can read count")
    }

    /// The room is counted with one read scope, the attachable type's (`AttachmentRepository`);
    /// a second attachable type needs a scope per type there first.
    @Test func oneTypeTakesAttachments() {
        #expect(AttachmentRules.attachableTypes == [HKVisionPrescriptionTypeIdentifier])
    }
}
