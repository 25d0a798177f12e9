import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Attachments in the store (v33): upload, commit, listing, reading and removal, the limits, and
/// the one visibility rule — an attachment is visible exactly when its object is, and a hidden
/// object answers every attachment call exactly as a UUID nobody saved.
@Suite(.timeLimit(.minutes(10))) struct AttachmentRepositoryTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static let owner = SourceRecord(bundleIdentifier: "org.example.owner", name: "Owner", version: "1")
    static let other = "org.example.other"
    static let vision = HKVisionPrescriptionTypeIdentifier

    static func prescription() -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: vision, startDate: date, endDate: date,
                     value: .visionPrescription(VisionPrescriptionValue(kind: 1, hasLenses: false, expirationDate: nil)))
    }

    static func store() async throws -> (HealthDatabase, UUID) {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let uuid = try await database.samples.insert([prescription()], source: owner)[0]
        return (database, uuid)
    }

    static func start(_ object: UUID, size: Int, name: String = "scan.pdf",
                      metadata: [String: MetadataValue] = [:]) -> AttachmentRepository.UploadStart {
        AttachmentRepository.UploadStart(objectUUID: object, typeIdentifier: vision, name: name, contentType: "com.adobe.pdf",
                                         size: size, metadata: metadata)
    }

    /// Adds `bytes` to `object` as `appID`, in chunks of at most `AttachmentLimits.chunkBytes`.
    @discardableResult
    static func add(_ bytes: [UInt8], to object: UUID, _ database: HealthDatabase, appID: String = owner.bundleIdentifier,
                    scope: ReadScope = .allSources, metadata: [String: MetadataValue] = [:]) async throws -> AttachmentRecord {
        let upload = try await database.attachments.beginUpload(start(object, size: bytes.count, metadata: metadata), appID: appID,
                                                                scope: scope, now: Date())
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + AttachmentLimits.chunkBytes, bytes.count)
            try await database.attachments.append(uploadID: upload, appID: appID, scope: scope, offset: offset,
                                                  data: Array(bytes[offset..<end]), now: Date())
            offset = end
        }
        return try await database.attachments.finish(uploadID: upload, appID: appID, scope: scope, now: Date())
    }

    static func read(_ attachment: UUID, of object: UUID, _ database: HealthDatabase,
                     scope: ReadScope = .allSources) throws -> (bytes: [UInt8], chunks: Int, lastDone: Bool) {
        var bytes: [UInt8] = []
        var chunks = 0
        var lastDone = false
        try database.attachments.readData(attachmentID: attachment, objectUUID: object, typeIdentifier: vision, scope: scope) { offset, data, done, _ in
            #expect(offset == bytes.count)
            #expect(!lastDone, "a chunk after the one marked done")
            bytes += data
            chunks += 1
            lastDone = done
        }
        return (bytes, chunks, lastDone)
    }

    /// Sizes at the chunk edges and the extremes: 0, 1, one chunk less one, one chunk, one more,
    /// several chunks and a ragged end. Each comes back byte for byte, in order, once marked done.
    @Test(arguments: [0, 1, AttachmentLimits.chunkBytes - 1, AttachmentLimits.chunkBytes, AttachmentLimits.chunkBytes + 1,
                      3 * AttachmentLimits.chunkBytes + 17])
    func bytesRoundTripAtEverySize(size: Int) async throws {
        let (database, object) = try await Self.store()
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let added = try await Self.add(bytes, to: object, database, metadata: ["page": .number(2)])
        #expect(added.size == size)
        let listed = try database.attachments.list(objectUUID: object, typeIdentifier: Self.vision, scope: .allSources)
        #expect(listed == [added])
        let read = try Self.read(added.identifier, of: object, database)
        #expect(read.bytes == bytes)
        #expect(read.lastDone)
        #expect(read.chunks == max(1, (size + AttachmentLimits.chunkBytes - 1) / AttachmentLimits.chunkBytes))
    }

    /// The scopes under which the owner's prescription is hidden, each against every call: the
    /// answer for the hidden object equals the answer for a UUID nobody saved.
    @Test(arguments: [ReadScope.ownSamples(appID: other), .ownAndGrantedObjects(appID: other)])
    func aHiddenObjectAnswersAsAMissingOne(scope: ReadScope) async throws {
        let (database, object) = try await Self.store()
        let attachment = try await Self.add([1, 2, 3], to: object, database)
        let missing = UUID()
        // Listing: none, for both.
        #expect(try database.attachments.list(objectUUID: object, typeIdentifier: Self.vision, scope: scope) == [])
        #expect(try database.attachments.list(objectUUID: missing, typeIdentifier: Self.vision, scope: scope) == [])
        // Reading, beginning an upload, removing: the same error for both.
        for call in Call.allCases {
            let hidden = await Self.failure { try await call.run(object, attachment.identifier, database, scope) }
            let absent = await Self.failure { try await call.run(missing, attachment.identifier, database, scope) }
            #expect(hidden != nil, "\(String(describing: call)) on a hidden object succeeded")
            #expect(hidden == absent, "\(String(describing: call)): hidden \(String(describing: hidden)) vs missing \(String(describing: absent))")
        }
        // And the attachment is still there for whoever can see the object.
        #expect(try database.attachments.list(objectUUID: object, typeIdentifier: Self.vision, scope: .allSources).count == 1)
    }

    /// The calls that name an object, each run as another app (`other`) under `scope`.
    enum Call: CaseIterable {
        case read, begin, remove

        func run(_ object: UUID, _ attachment: UUID, _ database: HealthDatabase, _ scope: ReadScope) async throws {
            switch self {
            case .read:
                _ = try AttachmentRepositoryTests.read(attachment, of: object, database, scope: scope)
            case .begin:
                _ = try await database.attachments.beginUpload(AttachmentRepositoryTests.start(object, size: 3),
                                                               appID: AttachmentRepositoryTests.other, scope: scope, now: Date())
            case .remove:
                try await database.attachments.remove(attachmentID: attachment, objectUUID: object,
                                                      typeIdentifier: AttachmentRepositoryTests.vision, scope: scope,
                                                      appID: AttachmentRepositoryTests.other)
            }
        }
    }

    static func failure(_ work: () async throws -> Void) async -> String? {
        do {
            try await work()
            return nil
        } catch let error as HKError {
            return "\(error.code.rawValue) \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    /// Nothing half-uploaded is ever listed or read: an upload missing its last byte cannot
    /// finish, chunks must come in order and may not pass the declared size, another app cannot
    /// append to or finish an upload it did not begin.
    @Test func anUnfinishedUploadIsNeverVisible() async throws {
        let (database, object) = try await Self.store()
        let app = Self.owner.bundleIdentifier
        let upload = try await database.attachments.beginUpload(Self.start(object, size: 10), appID: app, scope: .allSources, now: Date())
        try await database.attachments.append(uploadID: upload, appID: app, scope: .allSources, offset: 0, data: Array(repeating: 7, count: 9), now: Date())
        #expect(try database.attachments.list(objectUUID: object, typeIdentifier: Self.vision, scope: .allSources) == [])
        await #expect(throws: HKError.self) {
            _ = try await database.attachments.finish(uploadID: upload, appID: app, scope: .allSources, now: Date())
        }
        await #expect(throws: HKError.self, "out of order") {
            try await database.attachments.append(uploadID: upload, appID: app, scope: .allSources, offset: 3, data: [1], now: Date())
        }
        await #expect(throws: HKError.self, "past the declared size") {
            try await database.attachments.append(uploadID: upload, appID: app, scope: .allSources, offset: 9, data: [1, 2], now: Date())
        }
        await #expect(throws: HKError.self, "another app's upload") {
            try await database.attachments.append(uploadID: upload, appID: Self.other, scope: .allSources, offset: 9, data: [1], now: Date())
        }
        await #expect(throws: HKError.self, "another app's upload") {
            _ = try await database.attachments.finish(uploadID: upload, appID: Self.other, scope: .allSources, now: Date())
        }
        try await database.attachments.append(uploadID: upload, appID: app, scope: .allSources, offset: 9, data: [1], now: Date())
        let finished = try await database.attachments.finish(uploadID: upload, appID: app, scope: .allSources, now: Date())
        #expect(try Self.read(finished.identifier, of: object, database).bytes == Array(repeating: 7, count: 9) + [1])
    }

    /// The object hidden between begin and finish (a grant revoked mid-upload): the finish fails
    /// as for an upload whose object was deleted (`HiddenWriteTwinTests` compares the two worlds),
    /// the upload is dropped, and nothing is stored.
    @Test func anObjectHiddenDuringTheUploadEndsIt() async throws {
        let (database, object) = try await Self.store()
        let upload = try await database.attachments.beginUpload(Self.start(object, size: 1), appID: Self.other, scope: .allSources, now: Date())
        try await database.attachments.append(uploadID: upload, appID: Self.other, scope: .allSources, offset: 0, data: [1], now: Date())
        let error = await Self.failure {
            _ = try await database.attachments.finish(uploadID: upload, appID: Self.other, scope: .ownSamples(appID: Self.other), now: Date())
        }
        #expect(error == "\(HKError.Code.errorInvalidArgument.rawValue) \(AttachmentRepository.uploadNotFound.message)")
        #expect(try database.attachments.list(objectUUID: object, typeIdentifier: Self.vision, scope: .allSources) == [])
        let staged = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM attachment_uploads") }
        #expect(staged == 0)
    }

    /// At most 16 per object: the 17th is refused at begin, and removing one makes room.
    @Test func anObjectTakesAtMostSixteen() async throws {
        let (database, object) = try await Self.store()
        var added: [AttachmentRecord] = []
        for index in 0..<AttachmentLimits.maximumPerObject { added.append(try await Self.add([UInt8(index)], to: object, database)) }
        let refused = await Self.failure { try await Self.add([0], to: object, database) }
        #expect(refused?.contains("already has 16 attachments") == true, "\(String(describing: refused))")
        try await database.attachments.remove(attachmentID: added[0].identifier, objectUUID: object, typeIdentifier: Self.vision,
                                              scope: .allSources, appID: Self.owner.bundleIdentifier)
        try await Self.add([0], to: object, database)
    }

    /// The per-app total counts finished attachments and the declared size of uploads in flight:
    /// exactly at 256 MiB is accepted, one byte more refused. (The stored sizes are set directly:
    /// the rule reads only the size column.)
    @Test func oneAppsAttachmentsTakeAtMost256MiB() async throws {
        let (database, object) = try await Self.store()
        let app = Self.owner.bundleIdentifier
        let existing = try await Self.add([9], to: object, database)
        try await database.writer.write { db in
            try db.execute(sql: "UPDATE attachments SET size = ? WHERE uuid = ?",
                           arguments: [AttachmentLimits.maximumBytesPerApp - 100, existing.identifier])
        }
        let pending = try await database.attachments.beginUpload(Self.start(object, size: 60), appID: app, scope: .allSources, now: Date())
        let over = await Self.failure {
            _ = try await database.attachments.beginUpload(Self.start(object, size: 41), appID: app, scope: .allSources, now: Date())
        }
        #expect(over?.contains("at most \(AttachmentLimits.maximumBytesPerApp) bytes") == true, "\(String(describing: over))")
        _ = try await database.attachments.beginUpload(Self.start(object, size: 40), appID: app, scope: .allSources, now: Date())
        // Another app's attachments count against it, not against this one.
        try await Self.add([1], to: object, database, appID: Self.other)
        _ = pending
    }

    /// Deleting the object deletes its attachments and their bytes (ON DELETE CASCADE), and its
    /// uploads in flight.
    @Test func deletingTheObjectDeletesItsAttachments() async throws {
        let (database, object) = try await Self.store()
        try await Self.add(Array(repeating: 5, count: AttachmentLimits.chunkBytes + 1), to: object, database)
        _ = try await database.attachments.beginUpload(Self.start(object, size: 5), appID: Self.other, scope: .allSources, now: Date())
        let deleted = try await database.samples.delete([ObjectReference(typeIdentifier: Self.vision, uuid: object)],
                                                        appID: Self.owner.bundleIdentifier)
        #expect(deleted == 1)
        let counts = try await database.writer.read { db in
            try ["attachments", "attachment_chunks", "attachment_uploads", "attachment_upload_chunks"].map {
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? -1
            }
        }
        #expect(counts == [0, 0, 0, 0])
    }

    /// An app removes only what it added; the user (appID nil) removes any.
    @Test func anAppRemovesOnlyItsOwnAttachments() async throws {
        let (database, object) = try await Self.store()
        let added = try await Self.add([1], to: object, database)
        let refused = await Self.failure {
            try await database.attachments.remove(attachmentID: added.identifier, objectUUID: object, typeIdentifier: Self.vision,
                                                  scope: .allSources, appID: Self.other)
        }
        #expect(refused?.hasPrefix("\(HKError.Code.errorAuthorizationDenied.rawValue) ") == true)
        try await database.attachments.remove(attachmentID: added.identifier, objectUUID: object, typeIdentifier: nil,
                                              scope: .allSources, appID: nil)
        #expect(try database.attachments.list(objectUUID: object, typeIdentifier: nil, scope: .allSources) == [])
    }

    /// Opening the store drops every staged upload: no upload outlives its process.
    @Test func reopeningDropsUploadsInFlight() async throws {
        let queue = try DatabaseQueue()
        let database = try HealthDatabase(writer: queue)
        let object = try await database.samples.insert([Self.prescription()], source: Self.owner)[0]
        let upload = try await database.attachments.beginUpload(Self.start(object, size: 2), appID: Self.other, scope: .allSources, now: Date())
        try await database.attachments.append(uploadID: upload, appID: Self.other, scope: .allSources, offset: 0, data: [1], now: Date())
        let reopened = try HealthDatabase(writer: queue)
        let staged = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM attachment_upload_chunks") ?? -1 }
        #expect(staged == 0)
        await #expect(throws: HKError.self) {
            try await reopened.attachments.append(uploadID: upload, appID: Self.other, scope: .allSources, offset: 1, data: [2], now: Date())
        }
    }

    /// An app's uploads in flight are bounded: a fifth begin abandons its least recently touched
    /// upload (whose append then fails), so an app whose earlier runs were killed mid-upload can
    /// always add again; and an upload idle past `staleUploadSeconds` goes at the app's next begin.
    @Test func uploadsInFlightAreBoundedWithoutLockingTheAppOut() async throws {
        let (database, object) = try await Self.store()
        let app = Self.owner.bundleIdentifier
        var uploads: [UUID] = []
        for index in 0..<AttachmentRepository.maximumUploadsPerApp {
            uploads.append(try await database.attachments.beginUpload(Self.start(object, size: 1), appID: app, scope: .allSources,
                                                                       now: Date().addingTimeInterval(Double(index))))
        }
        let fifth = try await database.attachments.beginUpload(Self.start(object, size: 1), appID: app, scope: .allSources,
                                                               now: Date().addingTimeInterval(10))
        let abandoned = await Self.failure {
            try await database.attachments.append(uploadID: uploads[0], appID: app, scope: .allSources, offset: 0, data: [1], now: Date())
        }
        #expect(abandoned == "\(HKError.Code.errorInvalidArgument.rawValue) \(AttachmentRepository.uploadNotFound.message)")
        for upload in uploads.dropFirst() + [fifth] {
            try await database.attachments.append(uploadID: upload, appID: app, scope: .allSources, offset: 0, data: [1], now: Date())
        }
        let inFlight = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM attachment_uploads") }
        #expect(inFlight == AttachmentRepository.maximumUploadsPerApp)

        // Idle past the limit: dropped by the next begin, whatever the count.
        let later = Date().addingTimeInterval(Double(AttachmentRepository.staleUploadSeconds) + 60)
        _ = try await database.attachments.beginUpload(Self.start(object, size: 1), appID: app, scope: .allSources, now: later)
        let left = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM attachment_uploads") }
        #expect(left == 1)
    }
}
