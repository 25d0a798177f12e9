import CPageCipher
import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Page nonces are drawn from the CSPRNG 64 at a time (issue 17, `nonce_batch.c`): one
/// `RAND_bytes` call per sealed page was about a third of sealing it. Each nonce is still used
/// once: every frame the WAL holds has its own, and a forked child — however it was made —
/// draws nonces of its own. Counted by the writer connection's WAL file on a real encrypted store.
@Suite(.timeLimit(.minutes(10))) struct PageNonceBatchTests {
    static let steps = StepSaveFixture.steps
    static let source = StepSaveFixture.source
    static let draft = StepSaveFixture.draft

    static func sample(_ index: Int) -> [SampleRecord] { [StepSaveFixture.sample(index)] }

    /// 100 durable one-sample saves seal hundreds of frames from a few batches (one a page before).
    @Test func sealedFramesDrawOneBatchPerSixtyFourNonces() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        _ = try database.samples.insertBlocking(Self.sample(0), source: Self.source, accessLog: Self.draft)
        let before = try WALWriteCoalescingTests.statistics(store)
        for index in 1...100 {
            _ = try database.samples.insertBlocking(Self.sample(index), source: Self.source, accessLog: Self.draft)
        }
        let after = try WALWriteCoalescingTests.statistics(store)
        let pages = after.pages_sealed - before.pages_sealed
        let batches = after.nonce_batches - before.nonce_batches
        #expect(pages >= 200, "frames sealed by 100 saves: \(pages)")
        #expect(batches <= pages / 64 + 2, "nonce batches drawn for \(pages) frames: \(batches)")
    }

    /// Every frame in the WAL file carries a nonce no other frame carries (bytes 4068–4079 of its
    /// sealed page, the unit's last 28 bytes being nonce and tag).
    @Test func everyFrameInTheLogHasItsOwnNonce() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        for index in 0..<100 {
            _ = try database.samples.insertBlocking(Self.sample(index), source: Self.source, accessLog: Self.draft)
        }
        let log = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/health.sqlite-wal"))
        let frameBytes = 24 + 4096
        var nonces = Set<Data>()
        var frames = 0
        var offset = 32
        while offset + frameBytes <= log.count {
            let page = log.index(log.startIndex, offsetBy: offset + 24)
            nonces.insert(log[(page + 4068)..<(page + 4080)])
            frames += 1
            offset += frameBytes
        }
        #expect(frames >= 200, "frames in the log: \(frames)")
        #expect(nonces.count == frames, "\(frames) frames, \(nonces.count) distinct nonces")
    }

    /// A child made by glibc's `_Fork()` runs no pthread_atfork handler, yet draws a nonce of its
    /// own: the batch it inherited is in memory the kernel wipes in a forked child
    /// (MADV_WIPEONFORK). Before, parent and child handed out the same next nonce under the same
    /// key (cipherreview21, finding 3). The fork happens in `store-crash-child fork-nonces`, a
    /// process with no other busy thread, on its store's writer connection.
    @Test func aChildOfForkWithoutHandlersDrawsNoncesOfItsOwn() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CrashChild.executablePath),
                     "build store-crash-child first (swift build)")
        let directory = TemporaryDirectory()
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CrashChild.executablePath)
        child.arguments = ["fork-nonces", directory.path]
        let output = Pipe(), errors = Pipe()
        child.standardOutput = output
        child.standardError = errors
        try child.run()
        // A hang guard only: a child stuck on a lock is killed, and the test fails below.
        let deadline = ContinuousClock.now + .seconds(300)
        while child.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
        if child.isRunning { kill(child.processIdentifier, SIGKILL) }
        child.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if text.contains("no _Fork") {
            withKnownIssue("glibc older than 2.34 has no _Fork(); the path is not exercised") { Issue.record("no _Fork") }
            return
        }
        var nonces: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { nonces[String(parts[0])] = String(parts[1]) }
        }
        let parent = try #require(nonces["parent"], "child process said: \(text)\(problems)")
        let forked = try #require(nonces["child"], "child process said: \(text)\(problems)")
        #expect(parent.count == 24 && forked.count == 24)
        #expect(parent != forked, "parent and _Fork() child drew the same page nonce under one key: \(parent)")
    }

    /// After a fork the child draws a batch of its own before its next seal, although the batch
    /// it inherited still has nonces left (the fork handler's work, done here without forking).
    @Test func aForkedChildThrowsItsInheritedBatchAway() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        _ = try database.samples.insertBlocking(Self.sample(0), source: Self.source, accessLog: Self.draft)
        let before = try WALWriteCoalescingTests.statistics(store)
        #expect(before.pages_sealed % 64 != 0, "the batch must have nonces left: \(before.pages_sealed) sealed")
        ohk_cipher_simulate_fork_child()
        _ = try database.samples.insertBlocking(Self.sample(1), source: Self.source, accessLog: Self.draft)
        let after = try WALWriteCoalescingTests.statistics(store)
        #expect(after.nonce_batches - before.nonce_batches == 1,
                "batches drawn by the first save after a fork: \(after.nonce_batches - before.nonce_batches)")
    }

    /// The same with a real fork: the handler that throws the inherited batch away must be
    /// registered with the C library, or a forked child sealing a page would repeat the nonce its
    /// parent seals next, under the same key. (The case above bumps the generation by hand and
    /// cannot tell whether the handler is registered at all.)
    @Test func aRealForkedChildDoesNotTakeFromItsInheritedBatch() throws {
        #expect(ohk_cipher_nonce_batch_fork_probe() == 1, "the child would take a nonce from the batch it inherited")
    }
}
