import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// HKAttachmentStore: adding (begin, append, finish), listing, reading and removing the files
/// attached to an object (SECURITY.md "Attachments").
///
/// Visibility has one rule, the objects' own: every call resolves the app's read scope for the
/// object's type here (AuthorizationEngine.readScope, the choke point every read uses) and the
/// store finds the object only inside it (`AttachmentRepository`). A hidden object is then an
/// object that does not exist: its attachments list as none, and adding to it, reading from it
/// or removing from it fails exactly as for a UUID nobody ever saved. Adding and removing also
/// need share permission for the object's type (`checkSave`, as every write). Every call needs
/// the open store: attachments are not journaled while locked (their bytes are too large for the
/// pending journal, and deciding visibility reads the store), so they fail with
/// `errorDatabaseInaccessible` then.
enum AttachmentService {
    static func begin(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let request = try AttachmentUploadStart(wire: payload)
        let type = try objectType(request.object)
        // Both depend only on what the app sent: nothing about any stored object is consulted yet.
        try AttachmentRules.checkAttachable(type)
        try AttachmentRules.check(name: request.name, contentType: request.contentType, size: request.size, metadata: request.metadata)
        let start = AttachmentRepository.UploadStart(objectUUID: request.object.uuid, typeIdentifier: type, name: request.name,
                                                     contentType: request.contentType, size: request.size, metadata: request.metadata)
        // The upload belongs to this connection: only it continues the upload, and its end drops
        // the upload (`ConnectionUploads`).
        let number = CallerConnection.current ?? 0
        let uploads = context.connections.uploads
        let connection = AttachmentRepository.UploadConnection(number: number, isOpen: { uploads.stage(on: number) })
        let uploadID = try await context.store.withDatabase(changing: "adding an attachment") { database in
            try database.authorization.checkSave(app: app, types: [type])
            let scope = try database.authorization.readScope(app: app, type: type).scope
            return try await database.attachments.beginUpload(start, appID: app.id, scope: scope, now: Date(), connection: connection)
        }
        return MethodTable.Reply(AttachmentUploadID(uploadID))
    }

    static func append(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let chunk = try AttachmentUploadChunk(wire: payload)
        try await context.store.withDatabase(changing: "adding an attachment") { database in
            let connection = CallerConnection.current ?? 0
            let scope = try uploadScope(chunk.uploadID, app: app, connection: connection, database).scope
            try await database.attachments.append(uploadID: chunk.uploadID, appID: app.id, scope: scope, offset: chunk.offset,
                                                  data: chunk.data, now: Date(), connection: connection)
        }
        return MethodTable.Reply(EmptyMessage())
    }

    /// The app's current read scope for the type of its upload's object, in which the store
    /// finds the upload's object again at every append and at the finish (`settledUpload`): a
    /// grant revoked during the upload ends it with the answer a deletion gives. The type comes
    /// from the upload (the app named it at begin); no upload, or an object gone, is that answer.
    private static func uploadScope(_ uploadID: UUID, app: AppManifest, connection: UInt64,
                                    _ database: HealthDatabase) throws -> (type: String, scope: ReadScope) {
        guard let type = try database.attachments.uploadObjectType(uploadID: uploadID, appID: app.id, connection: connection) else {
            throw AttachmentRepository.uploadNotFound
        }
        return (type, try database.authorization.readScope(app: app, type: type).scope)
    }

    static func finish(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let upload = try AttachmentUploadID(wire: payload)
        let record = try await context.store.withDatabase(changing: "adding an attachment") { database in
            // The upload's object is one the app could see at begin; its type decides the share
            // check and the scope the finish re-checks visibility in (a revoked grant ends it).
            let connection = CallerConnection.current ?? 0
            let (type, scope) = try uploadScope(upload.id, app: app, connection: connection, database)
            // Visibility before the share check: with share permission revoked too, a hidden
            // object must still answer as a deleted one, not with the share refusal.
            try await database.attachments.requireUpload(uploadID: upload.id, appID: app.id, scope: scope, connection: connection)
            try database.authorization.checkSave(app: app, types: [type])
            let record = try await database.attachments.finish(uploadID: upload.id, appID: app.id, scope: scope, now: Date(),
                                                               connection: connection)
            CallAccessReport.record(appID: app.id, types: [type], count: 1, detail: "attachment added (\(record.size) bytes)")
            return record
        }
        return MethodTable.Reply(AttachmentInfoMessage(record))
    }

    static func list(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let request = try AttachmentListRequest(wire: payload)
        let type = try objectType(request.object)
        let attachments = try await context.store.withDatabase { database in
            let scope = try database.authorization.readScope(app: app, type: type).scope
            let attachments = try database.attachments.list(objectUUID: request.object.uuid, typeIdentifier: type, scope: scope)
            CallAccessReport.record(appID: app.id, types: [type], count: attachments.count, detail: "attachments listed")
            return attachments
        }
        return MethodTable.Reply(AttachmentList(attachments))
    }

    static func readData(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        let request = try AttachmentRequest(wire: payload)
        let type = try objectType(request.object)
        let report = CallAccessReport.current
        try await context.store.withDatabaseOffPool { database in
            let visibility = try StreamVisibility(app: app, types: [type], in: database)
            report?.record(appID: app.id, types: [type], detail: "attachment data read")
            try stream(request, type: type, scope: visibility.scope(type).scope, within: visibility.snapshot,
                       database, responder, report) { chunk in
                // Each chunk leaves only while the object is still the app's to see; one it lost
                // midway ends the read as a missing one would have begun it.
                while !(try responder.sendFromSynchronousContext(chunk, ifStillCurrent: visibility.isCurrent)) {
                    try visibility.refresh()
                    let listed = try database.attachments.list(objectUUID: request.object.uuid, typeIdentifier: type,
                                                               scope: visibility.scope(type).scope)
                    guard listed.contains(where: { $0.identifier == request.attachmentID }) else {
                        throw AttachmentRepository.attachmentNotFound
                    }
                }
            }
        }
    }

    static func remove(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let app = try context.requireApp(caller)
        let request = try AttachmentRequest(wire: payload)
        let type = try objectType(request.object)
        try await context.store.withDatabase(changing: "removing an attachment") { database in
            try database.authorization.checkSave(app: app, types: [type])
            let scope = try database.authorization.readScope(app: app, type: type).scope
            try await database.attachments.remove(attachmentID: request.attachmentID, objectUUID: request.object.uuid,
                                                  typeIdentifier: type, scope: scope, appID: app.id)
            CallAccessReport.record(appID: app.id, types: [type], count: 1, detail: "attachment removed")
        }
        return MethodTable.Reply(EmptyMessage())
    }

    /// Streams the attachment's chunks, each through `send` (the manager's: as they are).
    static func stream(_ request: AttachmentRequest, type: String?, scope: ReadScope, within snapshot: ReadSnapshot? = nil,
                       _ database: HealthDatabase, _ responder: CallResponder, _ report: CallAccessReport?,
                       send: (_ chunk: [UInt8]) throws -> Void) throws {
        try database.attachments.readData(attachmentID: request.attachmentID, objectUUID: request.object.uuid,
                                          typeIdentifier: type, scope: scope, within: snapshot) { offset, bytes, done, total in
            try send(AttachmentDataChunk(offset: offset, data: bytes, done: done, totalSize: total).wireBytes())
            if done { report?.add(count: 1) }
        }
    }

    /// The type an app names its object as: required, and a type HealthKit knows. Decided from
    /// the request alone.
    private static func objectType(_ object: AttachmentObjectRef) throws(HKError) -> String {
        guard let type = object.typeIdentifier, HKObjectType.type(forIdentifier: type) != nil else {
            throw HKError(.errorInvalidArgument, "an attachment call must name its object's type, a HealthKit type identifier")
        }
        return type
    }
}

extension AttachmentService {
    /// The manager's calls (healthctl attachments): any object's attachments, whatever its
    /// source, since they are the user's own data; a missing object or attachment answers as
    /// for an app (none listed, errorNoData).
    static func listForManager(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let request = try AttachmentListRequest(wire: payload)
        let attachments = try await context.store.withDatabase { database in
            try database.attachments.list(objectUUID: request.object.uuid, typeIdentifier: request.object.typeIdentifier, scope: .allSources)
        }
        CallAccessReport.record(appID: nil, types: [HKVisionPrescriptionTypeIdentifier], count: attachments.count, detail: "attachments listed")
        return MethodTable.Reply(AttachmentList(attachments))
    }

    static func readForManager(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let request = try AttachmentRequest(wire: payload)
        let report = CallAccessReport.current
        report?.record(appID: nil, types: [HKVisionPrescriptionTypeIdentifier], detail: "attachment data read")
        try await context.store.withDatabaseOffPool { database in
            try stream(request, type: request.object.typeIdentifier, scope: .allSources, database, responder, report) { chunk in
                try responder.sendFromSynchronousContext(chunk)
            }
        }
    }

    static func removeForManager(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let request = try AttachmentRequest(wire: payload)
        try await context.store.withDatabase(changing: "removing an attachment") { database in
            try await database.attachments.remove(attachmentID: request.attachmentID, objectUUID: request.object.uuid,
                                                  typeIdentifier: request.object.typeIdentifier, scope: .allSources, appID: nil)
        }
        CallAccessReport.record(appID: nil, types: [HKVisionPrescriptionTypeIdentifier], count: 1, detail: "attachment removed")
        return MethodTable.Reply(EmptyMessage())
    }
}
