import Foundation
import HealthModel
import HealthWire

/// Attachments (HKAttachmentStore): every attachment call naming the hidden app's prescription,
/// each beside a twin naming a prescription that exists nowhere (`attachmentChangeTwins`,
/// `attachmentReadTwins`): an object the app cannot read must answer exactly as a missing one —
/// its attachments listed as none, its data and its removal `errorNoData`, an upload to it
/// refused with the missing object's error. The app's own prescription's listing is compared
/// across the worlds too. (No call here succeeds with a fresh id, which would differ per world.)
extension ProbeCatalog {
    static func attachmentObject(_ uuid: UUID) -> AttachmentObjectRef {
        AttachmentObjectRef(uuid: uuid, typeIdentifier: vision)
    }

    static let attachments: [ProbeCall] = [
        .unary("attachments of the hidden prescription", .listAttachments) {
            AttachmentListRequest(object: attachmentObject($0.hidden.prescription)).wireBytes()
        },
        .unary("attachments of a prescription that does not exist", .listAttachments) { _ in
            AttachmentListRequest(object: attachmentObject(freshUUID)).wireBytes()
        },
        .unary("attachments of its own prescription", .listAttachments) {
            AttachmentListRequest(object: attachmentObject(ProbeData.ownPrescription($0.ownUUIDs) ?? freshUUID)).wireBytes()
        },
        .stream("attachment data of the hidden prescription", .readAttachmentData) {
            AttachmentRequest(object: attachmentObject($0.hidden.prescription), attachmentID: freshUUID).wireBytes()
        },
        .stream("attachment data of a prescription that does not exist", .readAttachmentData) { _ in
            AttachmentRequest(object: attachmentObject(freshUUID), attachmentID: freshUUID).wireBytes()
        },
        .unary("remove an attachment of the hidden prescription", .removeAttachment) {
            AttachmentRequest(object: attachmentObject($0.hidden.prescription), attachmentID: freshUUID).wireBytes()
        },
        .unary("remove an attachment of a prescription that does not exist", .removeAttachment) { _ in
            AttachmentRequest(object: attachmentObject(freshUUID), attachmentID: freshUUID).wireBytes()
        },
        .unary("attach to the hidden prescription", .beginAttachment) {
            AttachmentUploadStart(object: attachmentObject($0.hidden.prescription), name: "scan.png", contentType: "public.png",
                                  size: 3, metadata: [:]).wireBytes()
        },
        .unary("attach to a prescription that does not exist", .beginAttachment) { _ in
            AttachmentUploadStart(object: attachmentObject(freshUUID), name: "scan.png", contentType: "public.png",
                                  size: 3, metadata: [:]).wireBytes()
        },
        .unary("append to an upload that does not exist", .appendAttachmentData) { _ in
            AttachmentUploadChunk(uploadID: freshUUID, offset: 0, data: [1, 2, 3]).wireBytes()
        },
        .unary("finish an upload that does not exist", .finishAttachment) { _ in AttachmentUploadID(freshUUID).wireBytes() },
    ]

    /// Within one world, in every state: the hidden prescription's attachments, data and removal
    /// answer as a missing one's (in `authorized` the prescription is granted, and still has none).
    static let attachmentChangeTwins = [
        ("attachments of the hidden prescription", "attachments of a prescription that does not exist"),
        ("attachment data of the hidden prescription", "attachment data of a prescription that does not exist"),
        ("remove an attachment of the hidden prescription", "remove an attachment of a prescription that does not exist"),
    ]

    /// Adding needs a readable object: allowed in `authorized` only (the granted prescription).
    static let attachmentReadTwins = [
        ("attach to the hidden prescription", "attach to a prescription that does not exist"),
    ]
}
