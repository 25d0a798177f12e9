public import Foundation
import HealthModel
import HealthWire

/// HealthKit's `HKAttachmentDataReader`: "A reader that provides access to an attachment's data"
/// (developer.apple.com/documentation/healthkit/hkattachmentdatareader). Each read asks healthd
/// again, under the object's visibility at that moment: an attachment whose object the app can
/// no longer read (or that was removed) fails with `errorNoData`.
public final class HKAttachmentDataReader: @unchecked Sendable {
    // @unchecked: immutable, but for `progress`, a Foundation Progress (thread-safe).
    public let attachment: HKAttachment
    /// Counts the attachment's bytes as they arrive (`totalUnitCount` is its size). Apple's
    /// tracks a download from iCloud; here every byte is local to healthd.
    public let progress: Progress
    private let connection: BrokerConnection

    init(attachment: HKAttachment, connection: BrokerConnection) {
        self.attachment = attachment
        self.connection = connection
        progress = Progress(totalUnitCount: Int64(attachment.size))
    }

    /// The whole of the attachment's data.
    public var data: Data {
        get async throws {
            var data = Data()
            data.reserveCapacity(attachment.size)
            try await read { chunk, _ in data.append(contentsOf: chunk) }
            return data
        }
    }

    /// The attachment's bytes as an asynchronous sequence.
    public var bytes: HKAttachment.AsyncBytes { HKAttachment.AsyncBytes(reader: self) }

    func read(_ handle: ([UInt8], _ done: Bool) async throws -> Void) async throws(HKError) {
        let request = AttachmentRequest(object: AttachmentObjectRef(uuid: attachment.objectUUID, typeIdentifier: attachment.objectTypeIdentifier),
                                        attachmentID: attachment.identifier)
        try await connection.attachmentData(request) { chunk, done in
            if Task.isCancelled || progress.isCancelled { throw HKError(.errorUserCanceled, "the read was cancelled") }
            progress.completedUnitCount += Int64(chunk.count)
            try await handle(chunk, done)
        }
    }
}

extension HKAttachment {
    /// "An ordered async sequence of bytes" of an attachment
    /// (developer.apple.com/documentation/healthkit/hkattachmentdatareader/bytes). Each iteration
    /// reads the attachment anew; chunks wait in this process until the loop takes their bytes.
    public struct AsyncBytes: AsyncSequence, Sendable {
        public typealias Element = UInt8
        let reader: HKAttachmentDataReader

        public func makeAsyncIterator() -> AsyncIterator {
            let (chunks, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
            let task = Task { [reader] in
                do {
                    try await reader.read { chunk, _ in continuation.yield(chunk) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
            return AsyncIterator(chunks: chunks.makeAsyncIterator())
        }

        public struct AsyncIterator: AsyncIteratorProtocol {
            var chunks: AsyncThrowingStream<[UInt8], any Error>.AsyncIterator
            var buffer: [UInt8] = []
            var index = 0

            public mutating func next() async throws -> UInt8? {
                while index >= buffer.count {
                    guard let chunk = try await chunks.next() else { return nil }
                    buffer = chunk
                    index = 0
                }
                defer { index += 1 }
                return buffer[index]
            }
        }
    }
}
