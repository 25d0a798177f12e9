import Foundation
import HealthModel
import HealthWire

extension BrokerConnection {
    /// Adds the file `file` to `object` (`HKAttachmentStore.addAttachment`): begin, one append per
    /// chunk of at most `AttachmentLimits.chunkBytes`, finish. The file is read as it is sent, a
    /// chunk at a time; a file that shrinks or grows meanwhile fails the add, and nothing is
    /// stored unless the finish commits.
    func addAttachment(to object: AttachmentObjectRef, name: String, contentType: String, file: AttachmentFile,
                       metadata: [String: MetadataValue]) async throws(HKError) -> AttachmentRecord {
        let start = AttachmentUploadStart(object: object, name: name, contentType: contentType, size: file.size, metadata: metadata)
        let upload: AttachmentUploadID = try await call(.beginAttachment, start)
        var offset = 0
        while offset < file.size {
            let chunk = try file.read(upTo: min(AttachmentLimits.chunkBytes, file.size - offset))
            guard !chunk.isEmpty else {
                throw HKError(.errorInvalidArgument, "the attachment's file shrank while it was being added")
            }
            let _: EmptyMessage = try await call(.appendAttachmentData, AttachmentUploadChunk(uploadID: upload.id, offset: offset, data: chunk))
            offset += chunk.count
        }
        guard try file.read(upTo: 1).isEmpty else {
            throw HKError(.errorInvalidArgument, "the attachment's file grew while it was being added")
        }
        let finished: AttachmentInfoMessage = try await call(.finishAttachment, upload)
        return finished.attachment
    }

    func attachments(of object: AttachmentObjectRef) async throws(HKError) -> [AttachmentRecord] {
        let list: AttachmentList = try await call(.listAttachments, AttachmentListRequest(object: object))
        return list.attachments
    }

    func removeAttachment(_ attachmentID: UUID, from object: AttachmentObjectRef) async throws(HKError) {
        let _: EmptyMessage = try await call(.removeAttachment, AttachmentRequest(object: object, attachmentID: attachmentID))
    }

    /// Streams an attachment's bytes to `handle`, a chunk at a time in order, with the last
    /// chunk's done flag (a 0-byte attachment is one empty chunk). Chunks must arrive in order
    /// and end with done; anything else is healthd's fault, reported as such.
    func attachmentData(_ request: AttachmentRequest, _ handle: ([UInt8], _ done: Bool) async throws -> Void) async throws(HKError) {
        if Task.isCancelled { throw Self.queryStopped }
        let (client, chunks) = try stream(.readAttachmentData, request)
        var expected = 0
        var finished = false
        do {
            for try await payload in chunks {
                let chunk: AttachmentDataChunk
                do {
                    chunk = try AttachmentDataChunk(wire: payload)
                } catch {
                    throw HKError(.unknownError, "healthd sent a malformed attachment chunk (\(error))")
                }
                guard chunk.offset == expected, !finished else {
                    throw HKError(.unknownError, "healthd sent an attachment's chunks out of order")
                }
                expected += chunk.data.count
                finished = chunk.done
                try await handle(chunk.data, chunk.done)
            }
        } catch let error as HKError {
            throw error
        } catch {
            if Task.isCancelled { throw Self.queryStopped }
            throw failure(error, on: client)
        }
        if finished { return }
        if Task.isCancelled { throw Self.queryStopped }
        throw HKError(.unknownError, "healthd ended the attachment's data without its last chunk")
    }
}
