public import Foundation
public import HealthModel
public import HealthWire

/// Attachments (healthctl attachments): any object's, whatever its source — the user's own data.
extension ManagerClient {
    public func attachments(of objectUUID: UUID) async throws(HealthCtlError) -> [AttachmentRecord] {
        let list: AttachmentList = try await unary(.listAttachments, AttachmentListRequest(object: Self.object(objectUUID)),
                                                   action: "list the attachments of \(objectUUID.uuidString.lowercased())")
        return list.attachments
    }

    /// The attachment's bytes in the chunks healthd sends, in order, the last with `done`.
    public func attachmentData(_ attachmentID: UUID, of objectUUID: UUID) -> DecodedStream<AttachmentDataChunk> {
        stream(.readAttachmentData, AttachmentRequest(object: Self.object(objectUUID), attachmentID: attachmentID),
               action: "read attachment \(attachmentID.uuidString.lowercased())", as: AttachmentDataChunk.self)
    }

    public func removeAttachment(_ attachmentID: UUID, of objectUUID: UUID) async throws(HealthCtlError) {
        let _: EmptyMessage = try await unary(.removeAttachment, AttachmentRequest(object: Self.object(objectUUID), attachmentID: attachmentID),
                                              action: "delete attachment \(attachmentID.uuidString.lowercased())")
    }

    private static func object(_ uuid: UUID) -> AttachmentObjectRef { AttachmentObjectRef(uuid: uuid, typeIdentifier: nil) }
}
