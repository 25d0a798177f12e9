import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Attacks on the reader-thread save path (session 10: a lone save of at most 64 KiB commits on
/// its connection's reader thread, `CallDispatcher.commitNow`, `GroupCommitQueue.submitBlocking`)
/// while a second, sandboxed app (`e2e-client` under health-sandbox) and the manager must still be
/// served. The hostile app is this test process, connected directly, on every connection its
/// budget allows at once:
/// - tiny saves pipelined in one write and never read (each lone on its connection, so each
///   commits on that connection's reader thread), and saves just under 64 KiB whose unread
///   replies fill the socket and healthd's queue until that connection's reader pauses;
/// - saves each followed by a CANCEL of it (the cancel arrives mid-commit or after the reply);
/// - saves sent and the connection closed at once (closed mid-commit);
/// - a frame announced at 4 MiB and never finished (slow loris) between them.
/// No deadline decides the outcome: the others must be answered while every attack still holds
/// (checked afterwards); the 120 s are hang guards.
@Suite(.timeLimit(.minutes(10)), .serialized) struct ReaderSaveAvailabilityEndToEndTests {
    static let hostile = AppBudgetEndToEndTests.hostile
    static let bystander = AppBudgetEndToEndTests.bystander
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    func world() async throws -> BrokerProcess {
        let broker = try await AppBudgetEndToEndTests().brokerWithTwoApps(AppBudgetEndToEndTests.stallsLast)
        for app in [Self.hostile, Self.bystander] {
            for access in ["read", "share"] { try await broker.set(app, access, Self.steps, allowed: true) }
        }
        return broker
    }

    /// One save request of `samples` step samples, under call id `id`.
    static func save(_ id: UInt64, samples: Int = 1) -> [UInt8] {
        FrameCodec.encode(.request(id, HealthStoreMethod.save.rawValue, savePayload(id, samples: samples)))
    }

    static func savePayload(_ id: UInt64, samples: Int) -> [UInt8] {
        let records = (0..<samples).map { index in
            let date = start.addingTimeInterval(Double(id) * 1_000 + Double(index))
            return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: date, endDate: date.addingTimeInterval(1),
                                value: .quantity(1, unit: "count"))
        }
        return SampleList(records).wireBytes()
    }

    static func cancel(_ id: UInt64) -> [UInt8] {
        FrameCodec.encode(Frame(callID: id, kind: .cancel))
    }

    /// The bystander's save and query, and the manager's status, are answered.
    func expectOthersServed(_ broker: BrokerProcess, _ context: String, value: Int) async throws {
        let end = Int(Self.start.timeIntervalSince1970) - 3_600
        let saved = try await broker.runApp(Self.bystander, ["save", Self.steps, "\(value)", "count", "\(end - 60)", "\(end)"], timeout: 120)
        #expect(saved.okValue != nil, "\(context): the bystander's save failed: \(saved)")
        let status = try await ProcessRun.run(Products.path("healthctl"), ["status", "--socket", broker.adminSocket], timeout: 120)
        #expect(status.status == 0, "\(context): \(status)")
    }

    /// Waits (hang guard 120 s) until replies unread on `fd` fill its receive buffer: what more
    /// healthd answers waits in its own queue, and past the pause its reader stops.
    static func waitUntilFull(_ fd: Int32) async throws -> Bool {
        var size: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, &length) == 0 else { return false }
        let until = Date().addingTimeInterval(120)
        while Date() < until {
            var unread: Int32 = 0
            // The kernel counts its bookkeeping in SO_RCVBUF: half of it is already full.
            if ioctl(fd, UInt(FIONREAD), &unread) == 0, unread >= size / 2 { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func readerThreadSavesUnderAttackStallOnlyTheAttacker() async throws {
        let broker = try await world()
        var unread: [Int32] = []
        var others: [Int32] = []
        // Closed before healthd stops, which would otherwise wait out its writers' send timeout.
        defer { for fd in unread + others { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }; withExtendedLifetime(broker) {} }
        let app = AppBudgetEndToEndTests()
        // 1 connection: saves just under the reader path's 64 KiB whose replies (600 UUIDs each)
        // fill the socket and then healthd's queue up to its pause: its reader really stops.
        let bigSaves = 200
        try #require(Self.savePayload(1, samples: 600).count <= 64 * 1_024)
        let filling = try UnixSocket.connect(path: broker.appSocket)
        unread.append(filling)
        app.writeInBackground((1...UInt64(bigSaves)).flatMap { Self.save($0, samples: 600) }, to: filling)
        // 11 connections: 2,000 tiny saves each, pipelined, replies never read.
        for _ in 0..<11 {
            let fd = try UnixSocket.connect(path: broker.appSocket)
            unread.append(fd)
            app.writeInBackground((1...2_000).flatMap { Self.save(UInt64($0)) }, to: fd)
        }
        // 2 connections: every save cancelled right after it was sent.
        for _ in 0..<2 {
            let fd = try UnixSocket.connect(path: broker.appSocket)
            others.append(fd)
            app.writeInBackground((1...500).flatMap { Self.save(UInt64($0)) + Self.cancel(UInt64($0)) }, to: fd)
        }
        // 1 connection: a save, then a 4 MiB frame announced and never finished. Connected
        // before the next one closes, whose end healthd may not have noticed yet (16 per app).
        let loris = try UnixSocket.connect(path: broker.appSocket)
        others.append(loris)
        sendAll(Self.save(1) + FrameReader.prefix(forBodyLength: WireLimits.maxFrameBytes) + [0x0A], to: loris)
        // 1 connection: 200 saves, then closed before any reply (closed mid-commit).
        let closing = try UnixSocket.connect(path: broker.appSocket)
        sendAll((1...200).flatMap { Self.save(UInt64($0)) }, to: closing)
        close(closing)

        for fd in unread { try #require(try await AppBudgetEndToEndTests.waitForReplies(fd), "healthd never answered a flood") }
        try #require(try await Self.waitUntilFull(filling), "the unread replies never filled the socket")
        try #require(try await AppBudgetEndToEndTests.waitUntilTaken(loris), "healthd never read the partial frame")
        try await expectOthersServed(broker, "open store", value: 11)

        // The store locks and unlocks under the attack; a save made while it is locked is
        // journaled and merged.
        let lock = try await broker.healthctl(["lock"])
        #expect(lock.status == 0, "\(lock)")
        try await expectOthersServed(broker, "locked store", value: 12)
        let unlock = try await broker.healthctl(["unlock"])
        #expect(unlock.status == 0, "\(unlock)")
        let read = try await broker.runApp(Self.bystander, ["query", Self.steps], timeout: 120)
        let values = Set(read.samples.filter { $0.source == Self.bystander }.map(\.value))
        #expect(values == [11, 12], "the bystander's saves: \(read)")

        // Every attack still holds: the others did not wait for healthd to give up on them.
        #expect(unread.allSatisfy(AppBudgetEndToEndTests.stillOpen), "healthd closed a flooding connection before the others were served")
        #expect(AppBudgetEndToEndTests.stillOpen(loris), "healthd hung up on the incomplete frame before the others were served")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }
}
