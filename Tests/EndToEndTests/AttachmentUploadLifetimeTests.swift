import Foundation
import Glibc
import GRDB
import HealthIPC
import HealthModel
import HealthStore
import HealthWire
import Testing
import TestSupport

/// An attachment upload belongs to the connection that began it (SECURITY.md "Attachments"):
/// only that connection appends to or finishes it, and healthd drops its staged rows when the
/// connection ends — closed, or its app killed mid-upload — rather than keeping them, on disk and
/// counted in the app's quota, until the app's next upload or healthd's next start. Checked in the
/// stopped store itself: healthd never shows staged rows, and drops them when it opens the store.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AttachmentUploadLifetimeTests {
    static let vision = HKVisionPrescriptionTypeIdentifier
    static let app = "org.test.uploader"

    /// This test process as `app` (direct), one prescription of its own saved through the SDK
    /// (launch-bound e2e-client under the same app id), and an upload of 1,000 declared bytes
    /// begun on a connection of its own with 400 bytes sent.
    static func stagedUpload(on broker: BrokerProcess) async throws -> (uploader: RawApp, object: UUID, upload: UUID) {
        let uploader = try await RawApp.install(app, on: broker, grants: [("share", vision)])
        let saved = try await broker.runApp(app, ["attachment-snippet", "round-trip", "10"])
        let printed = saved.lines.last { $0.hasPrefix("object ") }.map { String($0.dropFirst("object ".count)) }
        let object = try #require(printed.flatMap(UUID.init(uuidString:)), "no object printed: \(saved)")
        let start = AttachmentUploadStart(object: AttachmentObjectRef(uuid: object, typeIdentifier: vision),
                                          name: "scan.pdf", contentType: "com.adobe.pdf", size: 1000, metadata: [:])
        let upload = try AttachmentUploadID(wire: await uploader.client.unary(HealthStoreMethod.beginAttachment.rawValue, start.wireBytes())).id
        _ = try await uploader.client.unary(HealthStoreMethod.appendAttachmentData.rawValue,
                                           AttachmentUploadChunk(uploadID: upload, offset: 0, data: [UInt8](repeating: 7, count: 400)).wireBytes())
        return (uploader, object, upload)
    }

    /// Stops healthd with `signal` and counts the staged upload rows left in its store, opened
    /// directly with its key files. SIGTERM is an orderly stop: healthd ends every app connection
    /// first (their uploads go with them) and closes the store; SIGKILL leaves the store as the
    /// last commit did.
    static func stagedRowsAfterStopping(_ broker: BrokerProcess, with signal: Int32 = SIGTERM) throws -> (uploads: Int, chunks: Int) {
        kill(broker.pid, signal)
        let deadline = Date().addingTimeInterval(60)
        while broker.isRunning && Date() < deadline { usleep(20_000) }
        let store = try EncryptedDatabase.open(directory: broker.storeDirectory)
        defer { try? store.close() }
        return try store.writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attachment_uploads") ?? -1,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM attachment_upload_chunks") ?? -1)
        }
    }

    /// Waits until healthd counts no connected app: a connection counts until its thread has
    /// dropped its uploads.
    static func waitUntilNoAppIsConnected(_ broker: BrokerProcess) async throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let status = try await broker.healthctl(["status"])
            if status.stdout.contains("Connected apps:") && status.stdout.split(separator: "\n").contains(where: {
                $0.hasPrefix("Connected apps:") && $0.hasSuffix(" 0")
            }) { return }
            usleep(50_000)
        }
        Issue.record("an app still counted as connected after 30 s")
    }

    /// Control: while the connection is open, its upload is staged in the store (one upload, its
    /// 400 bytes in chunks) — what the next two tests expect gone. Seen by killing healthd
    /// (SIGKILL): an orderly stop drops it (`anOrderlyStopDropsAnOpenConnectionsUpload`).
    @Test func anOpenConnectionsUploadIsStaged() async throws {
        let broker = try BrokerProcess()
        defer { broker.stop() }
        let (uploader, _, _) = try await Self.stagedUpload(on: broker)
        defer { uploader.close() }
        let rows = try Self.stagedRowsAfterStopping(broker, with: SIGKILL)
        #expect(rows.uploads == 1 && rows.chunks == 1, "\(rows)")
    }

    /// The connection ends mid-upload: nothing of the upload stays in the store. Fails without the
    /// cleanup (1 upload and 1 chunk row stay until healthd's next start).
    @Test func anUploadEndsWithItsConnection() async throws {
        let broker = try BrokerProcess()
        defer { broker.stop() }
        let (uploader, _, _) = try await Self.stagedUpload(on: broker)
        uploader.close()
        try await Self.waitUntilNoAppIsConnected(broker)
        let rows = try Self.stagedRowsAfterStopping(broker)
        #expect(rows.uploads == 0 && rows.chunks == 0, "\(rows)")
    }

    /// healthd stopped (SIGTERM) with the upload's connection still open and not reading: the
    /// stop ends the connection, gives its peer a second to read that healthd stops, shuts it
    /// down, and waits for its thread's clean-up (`Broker.stop`), so nothing of the upload stays in
    /// the store. Before, the stop waited for the connection's calls only, and healthd exited while
    /// the connection's writer still waited on the peer (for `unreadRepliesTimeout`) and its thread
    /// had not dropped the upload: it stayed staged (1 upload, 1 chunk row) until the next start.
    /// (With a peer that reads, the thread usually won that race.)
    @Test func anOrderlyStopDropsAnOpenConnectionsUpload() async throws {
        // The stalled peer's connection is not given up on by itself (10 s in production) during
        // the test: only the stop ends it.
        let broker = try BrokerProcess(extraArguments: ["--stalled-peer-timeout", "600"])
        defer { broker.stop() }
        let (uploader, object, _) = try await Self.stagedUpload(on: broker)
        uploader.close()
        try await Self.waitUntilNoAppIsConnected(broker)
        let fd = try UnixSocket.connect(path: broker.appSocket)
        defer { close(fd) }
        try Self.beginUpload(to: object, on: fd)
        let unread = try await Self.stopReading(fd)
        let rows = try Self.stagedRowsAfterStopping(broker)
        #expect(rows.uploads == 0 && rows.chunks == 0, "\(rows) (the connection stalled at \(unread) unread bytes)")
        #expect(!broker.log.contains("had not finished their clean-up"), "\(broker.log)")
    }

    /// Begins an upload to `object` on the raw connection `fd` (this test process, as `app`) and
    /// sends it 400 bytes, each answer read.
    static func beginUpload(to object: UUID, on fd: Int32) throws {
        let start = AttachmentUploadStart(object: AttachmentObjectRef(uuid: object, typeIdentifier: vision),
                                          name: "scan.pdf", contentType: "com.adobe.pdf", size: 1000, metadata: [:])
        try #require(RawFrames.pipeline([(HealthStoreMethod.beginAttachment.rawValue, start.wireBytes())], firstID: 1, to: fd))
        let begun = try #require(try RawFrames.answer(to: 1, on: fd), "no answer to the begin")
        let upload = try AttachmentUploadID(wire: begun.payload).id
        let chunk = AttachmentUploadChunk(uploadID: upload, offset: 0, data: [UInt8](repeating: 7, count: 400))
        try #require(RawFrames.pipeline([(HealthStoreMethod.appendAttachmentData.rawValue, chunk.wireBytes())], firstID: 2, to: fd))
        let appended = try #require(try RawFrames.answer(to: 2, on: fd), "no answer to the append")
        try #require(appended.status == nil || appended.status?.code == .ok, "the append failed: \(String(describing: appended.status))")
    }

    /// Sends `fd` 40,000 cheap calls from a thread of its own (healthd stops reading a peer that
    /// leaves its answers unread, so the write may block until the socket closes) and reads none
    /// of their answers; returns the bytes unread once healthd's writes to it have stopped (the
    /// unread bytes the same for a second), i.e. its writer waits on this peer. That is a few
    /// KiB: each answer is a small message of its own, and the socket's room is counted in the
    /// kernel's buffers per message, not in bytes.
    static func stopReading(_ fd: Int32) async throws -> Int {
        let call = (HealthStoreMethod.authorizationStatus.rawValue,
                    TypeIdentifierMessage(HKQuantityTypeIdentifier.stepCount.rawValue).wireBytes())
        let own = dup(fd)
        let writer = Thread {
            _ = RawFrames.pipeline(Array(repeating: call, count: 40_000), firstID: 3, to: own)
            close(own)
        }
        writer.start()
        let until = Date().addingTimeInterval(120)
        var last: Int32 = 0
        var steadySince = Date()
        while Date() < until {
            var unread: Int32 = 0
            _ = ioctl(fd, UInt(FIONREAD), &unread)
            if unread != last {
                last = unread
                steadySince = Date()
            } else if unread > 0, Date().timeIntervalSince(steadySince) >= 1 {
                return Int(unread)
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("healthd's answers on the connection never stopped (\(last) bytes unread)")
        return Int(last)
    }

    /// Another connection of the same app cannot append to, or finish, the upload (an unknown
    /// upload's errorInvalidArgument), and the first connection still can, then finishes it.
    @Test func onlyTheConnectionThatBeganAnUploadContinuesIt() async throws {
        let broker = try BrokerProcess()
        defer { broker.stop() }
        let (uploader, _, upload) = try await Self.stagedUpload(on: broker)
        defer { uploader.close() }
        let second = RawApp(client: try RPCClient.connect(path: broker.appSocket))
        defer { second.close() }
        let rest = AttachmentUploadChunk(uploadID: upload, offset: 400, data: [UInt8](repeating: 7, count: 600))
        let appended = await second.failure(.appendAttachmentData, rest)
        #expect(appended?.message.contains("the attachment upload was not found") == true, "\(String(describing: appended))")
        let finished = await second.failure(.finishAttachment, AttachmentUploadID(upload))
        #expect(finished?.message.contains("the attachment upload was not found") == true, "\(String(describing: finished))")
        #expect(await uploader.failure(.appendAttachmentData, rest) == nil)
        #expect(await uploader.failure(.finishAttachment, AttachmentUploadID(upload)) == nil)
    }
}
