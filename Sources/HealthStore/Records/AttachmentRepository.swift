public import Foundation
import GRDB
public import HealthModel

/// Attachments (HKAttachmentStore): staged uploads, their commit, listing, reading and removal.
///
/// The one rule of visibility (SECURITY.md "Attachments"): an attachment is visible exactly when
/// its object is, and every method here finds the object with the same condition every read
/// uses (`SampleSQL.visibility`, under the scope the broker's authorization engine resolved).
/// An object the caller cannot see and one that does not exist give the same nil from the same
/// indexed lookup, so every answer about a hidden object — its attachments, an upload to it, an
/// attachment's bytes — is the answer for a missing one.
///
/// Visibility is decided again wherever it could have changed: every append and the finish of an
/// upload re-find its object in the app's current scope (`settledUpload`: an upload to an object
/// the app can no longer see is dropped and answers exactly as one whose object was deleted), a
/// read re-finds the object before every chunk (a grant revoked, an object deleted or an
/// attachment removed mid-read ends it at the next chunk), and the room an app has left counts
/// only its attachments on objects it can read now (an object it lost, deleted later, must not
/// give the room back where the app could see it).
///
/// No app's call changes another app's uploads: the idle sweep and the per-app cap at a begin
/// touch only the caller's own (another app's begin succeeding tells whether it found its
/// object, which may be hidden from the app whose upload would go).
///
/// The limits are `AttachmentLimits`'; each is checked where the rows are written, inside the
/// transaction, so concurrent uploads cannot pass them together.
public struct AttachmentRepository: Sendable {
    let writer: any DatabaseWriter
    let commits: GroupCommitQueue

    /// An upload untouched this long is abandoned: its app's next begin drops it. healthd drops an
    /// upload when its connection ends (`dropUploads(connection:)`), so only one whose drop failed
    /// (the store was locked then) or whose app stopped sending on a live connection gets this old;
    /// the former also goes when healthd next opens the store. The SDK appends without pause, so a
    /// live upload is never this idle.
    public static let staleUploadSeconds: Int64 = 120
    /// Uploads one app may have in flight at once; beginning another abandons its oldest.
    public static let maximumUploadsPerApp = 4

    init(writer: any DatabaseWriter, commits: GroupCommitQueue) {
        self.writer = writer
        self.commits = commits
    }

    /// What an upload is to become.
    public struct UploadStart: Sendable {
        public var objectUUID: UUID
        public var typeIdentifier: String
        public var name: String
        public var contentType: String
        public var size: Int
        public var metadata: [String: MetadataValue]

        public init(objectUUID: UUID, typeIdentifier: String, name: String, contentType: String, size: Int,
                    metadata: [String: MetadataValue]) {
            self.objectUUID = objectUUID
            self.typeIdentifier = typeIdentifier
            self.name = name
            self.contentType = contentType
            self.size = size
            self.metadata = metadata
        }
    }

    /// Drops every staged upload: at start, no upload can still be going on.
    public func dropUploads() throws {
        try writer.write { db in try db.execute(sql: "DELETE FROM attachment_uploads") }
    }

    /// The connection an upload belongs to (v42): healthd's number for it, never sent anywhere,
    /// and whether it is still open — asked inside the transaction that stages the upload, so an
    /// upload whose connection ended while its begin was under way is never staged.
    public struct UploadConnection: Sendable {
        public let number: UInt64
        public let isOpen: @Sendable () -> Bool

        public init(number: UInt64, isOpen: @escaping @Sendable () -> Bool) {
            self.number = number
            self.isOpen = isOpen
        }

        /// For callers without connections (store tests and tools): number 0, always open.
        public static let none = UploadConnection(number: 0, isOpen: { true })
    }

    /// Drops the uploads begun on connection `number` and not finished: it ended mid-upload (its
    /// app closed it, crashed or was killed). Returns how many.
    @discardableResult
    public func dropUploads(connection number: UInt64) throws -> Int {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM attachment_uploads WHERE connection_number = ?", arguments: [Int64(bitPattern: number)])
            return db.changesCount
        }
    }

    /// Stages a new upload by `appID` to the object `start.objectUUID`, which must be visible in
    /// `scope` (the app's scope for `start.typeIdentifier`); returns the upload's id.
    public func beginUpload(_ start: UploadStart, appID: String, scope: ReadScope, now: Date,
                            connection: UploadConnection = .none) async throws -> UUID {
        try await commits.submit(returning: { db in
            guard let objectID = try Self.visibleObject(db, uuid: start.objectUUID, typeIdentifier: start.typeIdentifier, scope: scope) else {
                throw Self.objectNotFound
            }
            let nowUS = now.microsecondsSince1970
            // The caller's own only: sweeping every app's idle uploads here would let an app with
            // an idle upload learn that another app began attaching to an object it cannot see.
            try db.execute(sql: "DELETE FROM attachment_uploads WHERE app_id = ? AND touched_us < ?",
                           arguments: [appID, nowUS - Self.staleUploadSeconds * 1_000_000])
            // Uploads to objects the app lost count for nothing: otherwise whether the cap below
            // abandons a visible upload would change when such an object is deleted.
            try Self.dropUploadsOutOfSight(db, appID: appID, typeIdentifier: start.typeIdentifier, scope: scope)
            // At most `maximumUploadsPerApp` in flight: a further one abandons the app's least
            // recently touched upload (most likely one its crashed or killed run left), whose next
            // append or finish then fails as abandoned. An app thus never locks itself out.
            try db.execute(sql: """
                DELETE FROM attachment_uploads WHERE id IN (
                    SELECT id FROM attachment_uploads WHERE app_id = ? ORDER BY touched_us DESC, id DESC LIMIT -1 OFFSET ?)
                """, arguments: [appID, Self.maximumUploadsPerApp - 1])
            try Self.checkRoomOnObject(db, objectID: objectID)
            try Self.checkRoomForApp(db, appID: appID, adding: start.size, countingUploads: true, visibleIn: scope)
            guard connection.isOpen() else { throw Self.connectionEnded }
            let uploadID = UUID()
            try db.execute(sql: """
                INSERT INTO attachment_uploads (uuid, app_id, object_id, name, content_type, size, received, touched_us, metadata,
                                                connection_number)
                VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)
                """, arguments: [uploadID, appID, objectID, start.name, start.contentType, start.size, nowUS,
                                 MetadataCoding.encode(start.metadata), Int64(bitPattern: connection.number)])
            return uploadID
        })
    }

    /// Appends one chunk to `appID`'s upload `uploadID`, whose object must still be visible in
    /// `scope` (the app's current scope for the object's type; `settledUpload`). Chunks come in
    /// order: `offset` must be the bytes received so far, and the total may not pass the declared
    /// size.
    public func append(uploadID: UUID, appID: String, scope: ReadScope, offset: Int, data: [UInt8], now: Date,
                       connection: UInt64 = 0) async throws {
        let found = try await commits.submit(returning: { db -> Bool in
            guard let row = try Self.settledUpload(db, uploadID: uploadID, appID: appID, scope: scope, connection: connection) else {
                return false
            }
            let id: Int64 = row["id"]
            let size: Int = row["size"]
            let received: Int = row["received"]
            guard offset == received else {
                throw HKError(.errorInvalidArgument, "attachment chunk at byte \(offset), expected byte \(received): chunks go in order")
            }
            guard data.count <= size - received else {
                throw HKError(.errorInvalidArgument, "the attachment's data is longer than the \(size) bytes declared")
            }
            guard !data.isEmpty else { return true }
            try db.execute(sql: "INSERT INTO attachment_upload_chunks (upload_id, offset, data) VALUES (?, ?, ?)",
                           arguments: [id, offset, Data(data)])
            try db.execute(sql: "UPDATE attachment_uploads SET received = ?, touched_us = ? WHERE id = ?",
                           arguments: [received + data.count, now.microsecondsSince1970, id])
            return true
        })
        // Thrown after the commit: a hidden object's upload stays dropped, so every later call
        // answers as this one.
        guard found else { throw Self.uploadNotFound }
    }

    /// Fails with `uploadNotFound` unless `appID`'s upload `uploadID` exists and its object is
    /// visible in `scope`; an upload to an object the app no longer sees is dropped first (and
    /// stays dropped). The broker asks this before anything else about a finish, so a hidden
    /// object and a deleted one answer alike whatever else the app lost meanwhile.
    public func requireUpload(uploadID: UUID, appID: String, scope: ReadScope, connection: UInt64 = 0) async throws {
        let found = try await commits.submit(returning: { db in
            try Self.settledUpload(db, uploadID: uploadID, appID: appID, scope: scope, connection: connection) != nil
        })
        guard found else { throw Self.uploadNotFound }
    }

    /// The type of the object `appID`'s upload `uploadID` goes to, or nil (no such upload).
    public func uploadObjectType(uploadID: UUID, appID: String, connection: UInt64 = 0) throws -> String? {
        try writer.read { db in
            try String.fetchOne(db, sql: """
                SELECT t.identifier FROM attachment_uploads u JOIN objects o ON o.id = u.object_id JOIN sample_types t ON t.id = o.type_id
                WHERE u.uuid = ? AND u.app_id = ? AND u.connection_number = ?
                """, arguments: [uploadID, appID, Int64(bitPattern: connection)])
        }
    }

    /// Finishes `appID`'s upload: all of it arrived, its object is still visible in `scope`
    /// (else it is dropped and answers as one whose object was deleted), and the limits still
    /// hold — then the attachment and its chunks are written and the staging removed, in one
    /// transaction. Returns the attachment.
    public func finish(uploadID: UUID, appID: String, scope: ReadScope, now: Date, connection: UInt64 = 0) async throws -> AttachmentRecord {
        let finished = try await commits.submit(returning: { db -> AttachmentRecord? in
            guard let row = try Self.settledUpload(db, uploadID: uploadID, appID: appID, scope: scope, connection: connection) else {
                return nil
            }
            let uploadRowID: Int64 = row["id"]
            let objectID: Int64 = row["object_id"]
            let size: Int = row["size"]
            guard row["received"] == size else {
                throw HKError(.errorInvalidArgument, "the attachment's data ended after \(row["received"] as Int) of the \(size) bytes declared")
            }
            try Self.checkRoomOnObject(db, objectID: objectID)
            try Self.checkRoomForApp(db, appID: appID, adding: size, countingUploads: false, visibleIn: scope)
            let record = AttachmentRecord(identifier: UUID(), objectUUID: row["object_uuid"], name: row["name"],
                                          contentType: row["content_type"], size: size,
                                          creationDate: Date(microsecondsSince1970: now.microsecondsSince1970),
                                          metadata: try MetadataCoding.decode(row["metadata"]))
            try db.execute(sql: """
                INSERT INTO attachments (uuid, object_id, app_id, name, content_type, size, created_us, metadata)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [record.identifier, objectID, appID, record.name, record.contentType, size,
                                 record.creationDate.microsecondsSince1970, row["metadata"] as String?])
            let attachmentID = db.lastInsertedRowID
            try db.execute(sql: """
                INSERT INTO attachment_chunks (attachment_id, offset, data)
                SELECT ?, offset, data FROM attachment_upload_chunks WHERE upload_id = ? ORDER BY offset
                """, arguments: [attachmentID, uploadRowID])
            try db.execute(sql: "DELETE FROM attachment_uploads WHERE id = ?", arguments: [uploadRowID])
            return record
        })
        guard let finished else { throw Self.uploadNotFound }
        return finished
    }

    /// The attachments of `objectUUID` as `scope` sees them: none when the object is hidden or
    /// missing (the same empty answer). `typeIdentifier` nil: an object of any type (the manager).
    public func list(objectUUID: UUID, typeIdentifier: String?, scope: ReadScope) throws -> [AttachmentRecord] {
        try writer.read { db in
            guard let objectID = try Self.visibleObject(db, uuid: objectUUID, typeIdentifier: typeIdentifier, scope: scope) else {
                return []
            }
            return try Row.fetchAll(db, sql: """
                SELECT uuid, name, content_type, size, created_us, metadata FROM attachments
                WHERE object_id = ? ORDER BY created_us, id
                """, arguments: [objectID]).map { row in
                AttachmentRecord(identifier: row["uuid"], objectUUID: objectUUID, name: row["name"], contentType: row["content_type"],
                                 size: row["size"], creationDate: Date(microsecondsSince1970: row["created_us"]),
                                 metadata: try MetadataCoding.decode(row["metadata"]))
            }
        }
    }

    /// Streams attachment `attachmentID` of `objectUUID` to `send`, a stored chunk at a time
    /// (offset, bytes, done, total size); a 0-byte attachment is one empty chunk. Fails with
    /// `errorNoData` when the object is hidden or missing or the attachment is not one of its.
    ///
    /// Each chunk is read in a read of its own that finds the object in `scope` again, and `send`
    /// runs outside any read (it may wait for a slow app): once the object is hidden (a per-object
    /// grant revoked), deleted, or the attachment removed, the next chunk fails as for a missing
    /// attachment, and a stalled reader holds no snapshot open meanwhile. `snapshot`: the
    /// stream's, which records each chunk's reading (`ReadSnapshot.recordReading`).
    public func readData(attachmentID: UUID, objectUUID: UUID, typeIdentifier: String?, scope: ReadScope,
                         within snapshot: ReadSnapshot? = nil,
                         _ send: (_ offset: Int, _ bytes: [UInt8], _ done: Bool, _ total: Int) throws -> Void) throws {
        var sent = 0
        while true {
            let next = try writer.read { db in
                try snapshot?.recordReading(db)
                return try Self.chunk(db, attachmentID: attachmentID, objectUUID: objectUUID, typeIdentifier: typeIdentifier, scope: scope, at: sent)
            }
            guard let data = next.data else {
                guard sent == next.total else { throw StoreIntegrityError.attachmentChunks }
                if next.total == 0 { try send(0, [], true, 0) }
                return
            }
            guard !data.isEmpty, data.count <= next.total - sent else { throw StoreIntegrityError.attachmentChunks }
            let offset = sent
            sent += data.count
            try send(offset, data, sent == next.total, next.total)
            if sent == next.total { return }
        }
    }

    /// The attachment's size and its chunk stored at byte `offset` (nil: none there), if the
    /// object is visible in `scope` and the attachment is one of its; else `attachmentNotFound`.
    private static func chunk(_ db: Database, attachmentID: UUID, objectUUID: UUID, typeIdentifier: String?, scope: ReadScope,
                              at offset: Int) throws -> (total: Int, data: [UInt8]?) {
        guard let objectID = try visibleObject(db, uuid: objectUUID, typeIdentifier: typeIdentifier, scope: scope),
              let attachment = try Row.fetchOne(db, sql: "SELECT id, size FROM attachments WHERE uuid = ? AND object_id = ?",
                                                arguments: [attachmentID, objectID]) else {
            throw attachmentNotFound
        }
        let data = try Data.fetchOne(db, sql: "SELECT data FROM attachment_chunks WHERE attachment_id = ? AND offset = ?",
                                     arguments: [attachment["id"] as Int64, offset])
        return (attachment["size"], data.map { [UInt8]($0) })
    }

    /// Removes attachment `attachmentID` of `objectUUID`, visible in `scope`. `appID`: the app
    /// removing it, which may remove only attachments it added; nil for the user (the manager).
    public func remove(attachmentID: UUID, objectUUID: UUID, typeIdentifier: String?, scope: ReadScope, appID: String?) async throws {
        try await commits.submit(returning: { db in
            guard let objectID = try Self.visibleObject(db, uuid: objectUUID, typeIdentifier: typeIdentifier, scope: scope),
                  let row = try Row.fetchOne(db, sql: "SELECT id, app_id FROM attachments WHERE uuid = ? AND object_id = ?",
                                             arguments: [attachmentID, objectID]) else {
                throw Self.attachmentNotFound
            }
            if let appID, row["app_id"] != appID {
                // The attachment is visible (its object is), so saying whose it is reveals nothing.
                throw HKError(.errorAuthorizationDenied, "an app can remove only the attachments it added")
            }
            try db.execute(sql: "DELETE FROM attachments WHERE id = ?", arguments: [row["id"] as Int64])
        })
    }

    // MARK: - The rules, each in one place

    /// `appID`'s upload `uploadID` on `connection` if its object is visible in `scope` (the app's
    /// current scope for the object's type). One whose object the app can no longer see is
    /// deleted here, in the caller's transaction, and gives nil — the nil of an upload whose
    /// object was deleted (its rows went with it): so the app cannot tell a revoked grant from a
    /// deletion, nor learn later when the object it lost is deleted.
    static func settledUpload(_ db: Database, uploadID: UUID, appID: String, scope: ReadScope, connection: UInt64) throws -> Row? {
        let visible = SampleSQL.visibility(scope, alias: "o")
        guard let row = try Row.fetchOne(db, sql: """
            SELECT u.id, u.object_id, u.name, u.content_type, u.size, u.received, u.metadata, o.uuid AS object_uuid,
                   (\(visible.sql)) AS visible
            FROM attachment_uploads u JOIN objects o ON o.id = u.object_id
            WHERE u.uuid = ? AND u.app_id = ? AND u.connection_number = ?
            """, arguments: visible.arguments + [uploadID, appID, Int64(bitPattern: connection)]) else {
            return nil
        }
        guard row["visible"] as Bool? == true else {
            try db.execute(sql: "DELETE FROM attachment_uploads WHERE id = ?", arguments: [row["id"] as Int64])
            return nil
        }
        return row
    }

    /// Deletes `appID`'s uploads to objects of `typeIdentifier` that `scope` (its current scope
    /// for that type) no longer shows, as `settledUpload` would at their next call.
    static func dropUploadsOutOfSight(_ db: Database, appID: String, typeIdentifier: String, scope: ReadScope) throws {
        let visible = SampleSQL.visibility(scope, alias: "o")
        try db.execute(sql: """
            DELETE FROM attachment_uploads WHERE app_id = ? AND object_id IN (
                SELECT o.id FROM objects o WHERE o.id IN (SELECT object_id FROM attachment_uploads WHERE app_id = ?)
                    AND o.type_id = ? AND (\(visible.sql)) IS NOT 1)
            """, arguments: [appID, appID, try SampleSQL.typeID(db, typeIdentifier)] + visible.arguments)
    }

    /// The row id of object `uuid` if `scope` can see it (and, given a type, it is of that type).
    static func visibleObject(_ db: Database, uuid: UUID, typeIdentifier: String?, scope: ReadScope) throws -> Int64? {
        let visible = SampleSQL.visibility(scope, alias: "o")
        if let typeIdentifier {
            return try Int64.fetchOne(db, sql: "SELECT o.id FROM objects o WHERE o.uuid = ? AND o.type_id = ? AND \(visible.sql)",
                                      arguments: [uuid, try SampleSQL.typeID(db, typeIdentifier)] + visible.arguments)
        }
        return try Int64.fetchOne(db, sql: "SELECT o.id FROM objects o WHERE o.uuid = ? AND \(visible.sql)",
                                  arguments: [uuid] + visible.arguments)
    }

    private static func checkRoomOnObject(_ db: Database, objectID: Int64) throws {
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attachments WHERE object_id = ?", arguments: [objectID]) ?? 0
        guard count < AttachmentLimits.maximumPerObject else {
            throw HKError(.errorInvalidArgument,
                          "the object already has \(AttachmentLimits.maximumPerObject) attachments, the most one object may have; remove one first")
        }
    }

    /// `countingUploads`: whether the app's staged uploads count too (at begin they reserve
    /// their declared size; at finish the upload being finished is already one of them).
    ///
    /// Only attachments and uploads on objects visible in `scope` (the app's read scope for the
    /// one attachable type, `AttachmentRules.attachableTypes`) count: those on an object the app
    /// lost — another app's prescription whose grant the user revoked — would otherwise leave the
    /// room when their object is deleted, and the refusal (or its absence) would tell the app of a
    /// deletion it may not see. The cost: an app's attachments on objects it lost are stored
    /// beyond its bound, up to one bound per grant the user revoked.
    private static func checkRoomForApp(_ db: Database, appID: String, adding size: Int, countingUploads: Bool,
                                        visibleIn scope: ReadScope) throws {
        let visible = SampleSQL.visibility(scope, alias: "o")
        var used = try Int.fetchOne(db, sql: """
            SELECT COALESCE(SUM(a.size), 0) FROM attachments a JOIN objects o ON o.id = a.object_id WHERE a.app_id = ? AND \(visible.sql)
            """, arguments: [appID] + visible.arguments) ?? 0
        if countingUploads {
            used += try Int.fetchOne(db, sql: """
                SELECT COALESCE(SUM(u.size), 0) FROM attachment_uploads u JOIN objects o ON o.id = u.object_id
                WHERE u.app_id = ? AND \(visible.sql)
                """, arguments: [appID] + visible.arguments) ?? 0
        }
        guard used + size <= AttachmentLimits.maximumBytesPerApp else {
            throw HKError(.errorInvalidArgument,
                          "this app's attachments would take \(used + size) bytes; one app's attachments may take at most \(AttachmentLimits.maximumBytesPerApp) bytes (256 MiB): remove some first")
        }
    }

    static let objectNotFound = HKError(.errorInvalidArgument, "the object was not found among the objects this app can read")
    /// One answer for every upload an app cannot continue, whatever the reason: told apart, a
    /// hidden object and a deleted one would tell the app of deletions it may not see.
    public static let uploadNotFound = HKError(.errorInvalidArgument, """
        the attachment upload was not found: it was abandoned, begun on another connection, or its object was deleted \
        or is no longer readable by this app
        """)
    static let connectionEnded = HKError(.errorInvalidArgument, "the connection that began the attachment upload has ended")
    /// What reading a missing attachment, or one whose object the reader may not see, fails
    /// with — also a read the reader lost access to midway (`AttachmentService`).
    public static let attachmentNotFound = HKError(.errorNoData, "the attachment was not found")
}
