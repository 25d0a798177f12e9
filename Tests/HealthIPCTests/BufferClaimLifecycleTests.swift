import Foundation
import Glibc
import HealthIPC
import HealthWire
import Synchronization
import Testing
import TestSupport

/// The life of a request's claim on a `BufferBudget`, over real socketpairs with raw frames on the
/// client side: a reader never waits for room while it holds a frame of its own, never waits
/// for a peer that has gone, and after any hostile pattern every byte claimed is given back —
/// the owner's and the broker's count return to exactly 0 once the connections are over.
@Suite(.timeLimit(.minutes(10))) struct BufferClaimLifecycleTests {
    static let kib = 1 << 10
    static let mib = 1 << 20

    /// A served connection of `owner` on `budget`; `ended` opens once `serve` has returned.
    static func serve(_ budget: BufferBudget, owner: String = "app", ended: Gate = Gate(),
                      limits: ConnectionLimits = ConnectionLimits(),
                      admission: @escaping CallAdmission = { _ in .success({}) },
                      answerNow: @escaping @Sendable (IncomingCall) -> Bool = { _ in false },
                      _ handler: @escaping @Sendable (IncomingCall) async -> Void) throws -> Int32 {
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        let server = ServerConnection(fd: serverEnd, limits: limits, admission: admission,
                                      buffers: BufferAccount(budget: budget, owner: owner))
        Thread {
            _ = server.serve(answerNow: answerNow, handler)
            ended.open()
        }.start()
        return clientEnd
    }

    /// Waits (hang guard 120 s) until `condition` holds.
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        let until = Date().addingTimeInterval(120)
        while !condition() {
            if Date() > until { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// `eventually` for a step of `pattern`'s set-up: a step that never happens is an issue
    /// naming the pattern, not a silent wait for the whole hang guard (`closeMidStream` once waited
    /// 120 s, in every run, for more than a stream can buffer, then went on as if it had happened).
    static func expectEventually(_ pattern: Pattern, _ what: String, _ condition: () -> Bool,
                                 sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let held = try await eventually(condition)
        #expect(held, "\(pattern): never \(what)", sourceLocation: sourceLocation)
    }

    /// Reads and counts every frame the server sends on `fd` (a duplicate, on a thread of its
    /// own, so a blocking read holds no thread of the pool the handlers run on). The duplicate
    /// keeps the socket open: the client leaves with `leave(_:)`, not `close` alone.
    static func countAnswers(on fd: Int32) -> Counter {
        let answers = Counter()
        let reader = FrameConnection(fd: dup(fd))
        Thread { _ = reader.readFrames { _ in answers.add() } }.start()
        return answers
    }

    /// The client goes away: shut down (which ends every duplicate's use of the socket), closed.
    static func leave(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    static func request(_ id: UInt64, _ method: String, bytes: Int) -> [UInt8] {
        FrameCodec.encode(.request(id, method, [UInt8](repeating: 0x5A, count: bytes)))
    }

    /// The leak behind BrokerMemoryBoundEndToEndTests' stall: one read held all of a frame and
    /// the prefix of the next, and the reader asked for room for the next before handing the
    /// first to its call. With a share of one frame it waited for room only that undelivered
    /// frame held — for good. (Every connection of the flooding app ended up so, and with them
    /// the app.) Both frames are written in one send, so they arrive in one read.
    @Test func aReaderWaitsForRoomOnlyOnceItsEarlierFramesAreHandled() async throws {
        let first = Self.request(1, "/t/Echo", bytes: 8 * Self.kib)
        let second = Self.request(2, "/t/Echo", bytes: 8 * Self.kib)
        // Room for one of them at a time.
        let budget = BufferBudget(total: 64 * Self.mib, perOwner: first.count + 1_000, floor: 0)
        let ended = Gate()
        let fd = try Self.serve(budget, ended: ended) { $0.responder.respond([1]) }
        let answers = Self.countAnswers(on: fd)
        #expect(sendAll(first + second, to: fd))
        #expect(try await Self.eventually { answers.value == 2 }, "answered \(answers.value) of 2: the reader waited holding the first frame")
        Self.leave(fd)
        #expect(try await ended.wait())
        #expect(budget.inUse == 0)
    }

    /// A reader waiting for room reads nothing, so it would see its peer's end of file only once
    /// room was made; while another connection of its owner holds the share, it must notice
    /// the hang-up itself and end (its thread and its connection slot are the broker's).
    @Test func aReaderWaitingForRoomEndsWhenItsPeerLeaves() async throws {
        let budget = BufferBudget(total: 64 * Self.mib, perOwner: Self.mib, floor: 0)
        let holding = Gate(), release = Gate()
        let holder = try Self.serve(budget) { call in
            holding.open()
            _ = try? await release.wait()
            call.responder.respond([])
        }
        defer { close(holder) }
        #expect(sendAll(Self.request(1, "/t/Hold", bytes: 700 * Self.kib), to: holder))
        #expect(try await holding.wait())

        let ended = Gate()
        let waiter = try Self.serve(budget, ended: ended) { $0.responder.respond([]) }
        // Does not fit beside the held call: its reader waits for room. Only the prefix is
        // sent, so the reader cannot be reading the body when the peer leaves.
        #expect(sendAll(FrameReader.prefix(forBodyLength: 700 * Self.kib), to: waiter))
        close(waiter)
        #expect(try await ended.wait(), "the reader still waits for room for a peer that left")
        #expect(budget.inUse(by: "app") <= 700 * Self.kib + 64, "the gone peer's frame is still claimed")
        release.open()
        #expect(try await Self.eventually { budget.inUse == 0 }, "\(budget.inUse) bytes still claimed")
    }

    /// A prefix alone is part of a frame: a peer that announces a body and sends none of it
    /// times out like one that sent some of it, and gives its claim back — otherwise four bytes
    /// hold 4 MiB of the owner's share for as long as the peer keeps the connection open.
    @Test func aBarePrefixTimesOutAndGivesItsClaimBack() async throws {
        let budget = BufferBudget(total: 64 * Self.mib, perOwner: 8 * Self.mib, floor: 0)
        let ended = Gate()
        let fd = try Self.serve(budget, ended: ended, limits: ConnectionLimits(incompleteFrameTimeout: .milliseconds(300))) { _ in }
        defer { Self.leave(fd) }
        // The connection's last word says why it ended (a duplicate reads it; the client stays).
        let lastStatus = Mutex<RPCStatus?>(nil)
        let reader = FrameConnection(fd: dup(fd))
        Thread { _ = reader.readFrames { frame in lastStatus.withLock { $0 = frame.status } } }.start()
        #expect(sendAll(FrameReader.prefix(forBodyLength: 4 * Self.mib), to: fd))
        // The connection stays open from this side: only the timeout can end it.
        #expect(try await ended.wait(), "a bare prefix held its claim past the incomplete-frame timeout")
        #expect(budget.inUse == 0, "\(budget.inUse) bytes still claimed after the timeout")
        #expect(try await Self.eventually { lastStatus.withLock { $0 } != nil })
        let status = lastStatus.withLock { $0 }
        #expect(status?.code == .resourceExhausted && status?.message.contains("must arrive whole") == true,
                "\(String(describing: status))")
    }

    /// Hostile patterns, each on a fresh budget: once the peer has gone and the connection is
    /// over, nothing of it is still counted, for the owner or the broker.
    enum Pattern: String, CaseIterable, CustomTestStringConvertible {
        case cutOffMidBody, barePrefixThenClose, oversizeFrame, beyondTheShare, undecodableFrame
        case cancelMidCall, closeMidCall, closeMidReply, closeMidStream, refusedByAdmission
        case reusedCallID, pastCallsInFlight, answeredOnTheReadingThread, pipelinedOnEveryConnection

        var testDescription: String { rawValue }

        /// Whether the pattern keeps bytes counted until the client leaves (a held call, an
        /// unread reply, a cut-off frame). The others are refused before a claim, or give theirs
        /// back as soon as they are answered, before the test can look.
        var holdsWhileObserved: Bool {
            switch self {
            case .cutOffMidBody, .barePrefixThenClose, .cancelMidCall, .closeMidCall, .closeMidReply, .closeMidStream,
                 .reusedCallID, .pastCallsInFlight: true
            case .oversizeFrame, .beyondTheShare, .undecodableFrame, .refusedByAdmission, .answeredOnTheReadingThread,
                 .pipelinedOnEveryConnection: false
            }
        }
    }

    @Test(arguments: Pattern.allCases)
    func everyClaimIsGivenBackOnceTheConnectionsAreOver(_ pattern: Pattern) async throws {
        let budget = BufferBudget(total: 8 * Self.mib, perOwner: 2 * Self.mib, floor: 64 * Self.kib)
        let peak = try await Self.run(pattern, on: budget)
        #expect(try await Self.eventually { budget.inUse == 0 && budget.inUse(by: "app") == 0 },
                "\(pattern): \(budget.inUse) bytes still counted (\(budget.inUse(by: "app")) of the app's)")
        // Not vacuous: where the pattern holds bytes while the test looks, they were counted.
        if pattern.holdsWhileObserved {
            #expect(peak > 0, "\(pattern) never had anything counted")
        }
    }

    /// Runs `pattern` against servers on `budget` until their connections ended; the most the
    /// app had counted while it ran.
    static func run(_ pattern: Pattern, on budget: BufferBudget) async throws -> Int {
        var peak = 0
        func sample() { peak = max(peak, budget.inUse(by: "app")) }
        // Handlers by method: Hold answers once cancelled; Big replies 1.5 MiB; Stream sends
        // until it is stopped; anything else echoes a byte.
        let handler: @Sendable (IncomingCall) async -> Void = { call in
            switch call.method {
            case "/t/Hold":
                while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
                call.responder.fail(RPCStatus(.cancelled, "held"), streaming: false)
            case "/t/Big":
                // Less than the share (which would close the connection at once), more than
                // the socket takes: most of it stays queued, counted.
                call.responder.respond([UInt8](repeating: 7, count: 3 * mib / 2))
            case "/t/Stream":
                while (try? await call.responder.send([UInt8](repeating: 3, count: 64 * kib))) != nil {}
            default:
                call.responder.respond([1])
            }
        }
        let ended = Gate()
        var fds: [Int32] = []
        var gates = [ended]
        switch pattern {
        case .cutOffMidBody:
            fds = [try serve(budget, ended: ended, handler)]
            _ = sendAll(FrameReader.prefix(forBodyLength: Self.mib) + [UInt8](repeating: 0x0A, count: 1_000), to: fds[0])
            try await expectEventually(pattern, "the request claimed") { budget.inUse(by: "app") > 0 }
        case .barePrefixThenClose:
            fds = [try serve(budget, ended: ended, handler)]
            _ = sendAll(FrameReader.prefix(forBodyLength: Self.mib), to: fds[0])
            try await expectEventually(pattern, "the request claimed") { budget.inUse(by: "app") > 0 }
        case .oversizeFrame:
            fds = [try serve(budget, ended: ended, handler)]
            _ = sendAll(FrameReader.prefix(forBodyLength: WireLimits.maxFrameBytes + 1), to: fds[0])
        case .beyondTheShare:
            fds = [try serve(budget, ended: ended, handler)]
            _ = sendAll(FrameReader.prefix(forBodyLength: 3 * Self.mib), to: fds[0])
        case .undecodableFrame:
            fds = [try serve(budget, ended: ended, handler)]
            _ = sendAll(FrameReader.prefix(forBodyLength: 100 * Self.kib) + [UInt8](repeating: 0xFF, count: 100 * Self.kib), to: fds[0])
        case .cancelMidCall:
            fds = [try serve(budget, ended: ended, handler)]
            let answers = countAnswers(on: fds[0])
            _ = sendAll(request(1, "/t/Hold", bytes: 500 * Self.kib), to: fds[0])
            try await expectEventually(pattern, "the request claimed") { budget.inUse(by: "app") > 0 }
            sample()
            _ = sendAll(FrameCodec.encode(Frame(callID: 1, kind: .cancel)), to: fds[0])
            try await expectEventually(pattern, "answered") { answers.value >= 1 }
        case .closeMidCall:
            fds = [try serve(budget, ended: ended, handler)]
            _ = sendAll(request(1, "/t/Hold", bytes: 500 * Self.kib), to: fds[0])
            try await expectEventually(pattern, "the request claimed") { budget.inUse(by: "app") > 0 }
        case .closeMidReply:
            fds = [try serve(budget, ended: ended, handler)]
            _ = sendAll(request(1, "/t/Big", bytes: 10), to: fds[0])
            // The reply waits unread, counted against the app.
            try await expectEventually(pattern, "the unread reply counted") { budget.inUse(by: "app") > Self.mib }
        case .closeMidStream:
            fds = [try serve(budget, ended: ended, handler)]
            let call = request(1, "/t/Stream", bytes: 10)
            _ = sendAll(call, to: fds[0])
            // Stalled once the socket is full: a stream message is handed over only when nothing
            // is buffered (`CallResponder.handOffBytes`), so beside the request's own claim only
            // the unsent rest of one message is counted — never the 512 KiB this once waited for.
            try await expectEventually(pattern, "a stream message counted") { budget.inUse(by: "app") > call.count }
        case .refusedByAdmission:
            fds = [try serve(budget, ended: ended, admission: { _ in .failure(RPCStatus(.resourceExhausted, "no")) }, handler)]
            let answers = countAnswers(on: fds[0])
            for id in 1...10 { _ = sendAll(request(UInt64(id), "/t/Echo", bytes: 300 * Self.kib), to: fds[0]) }
            sample()
            try await expectEventually(pattern, "answered all 10") { answers.value >= 10 }
        case .reusedCallID:
            fds = [try serve(budget, ended: ended, handler)]
            let answers = countAnswers(on: fds[0])
            _ = sendAll(request(7, "/t/Hold", bytes: 300 * Self.kib), to: fds[0])
            try await expectEventually(pattern, "the request claimed") { budget.inUse(by: "app") > 0 }
            sample()
            _ = sendAll(request(7, "/t/Echo", bytes: 300 * Self.kib), to: fds[0])
            try await expectEventually(pattern, "answered") { answers.value >= 1 }  // already in flight
        case .pastCallsInFlight:
            fds = [try serve(budget, ended: ended, limits: ConnectionLimits(callsInFlight: 2), handler)]
            let answers = countAnswers(on: fds[0])
            for id in 1...5 { _ = sendAll(request(UInt64(id), "/t/Hold", bytes: 100 * Self.kib), to: fds[0]) }
            sample()
            try await expectEventually(pattern, "answered the three refused") { answers.value >= 3 }  // three refused; two held
        case .answeredOnTheReadingThread:
            fds = [try serve(budget, ended: ended, answerNow: { call in
                guard call.method == "/t/Now" else { return false }
                call.responder.respond([2])
                return true
            }, handler)]
            let answers = countAnswers(on: fds[0])
            for id in 1...20 { _ = sendAll(request(UInt64(id), "/t/Now", bytes: 200 * Self.kib), to: fds[0]) }
            sample()
            try await expectEventually(pattern, "answered all 20") { answers.value >= 20 }
        case .pipelinedOnEveryConnection:
            // Four connections flooding frames of a third of the share, back to back, while
            // their answers are read: more than the share is always on its way.
            gates = (0..<4).map { _ in Gate() }
            fds = try gates.map { try serve(budget, ended: $0, handler) }
            let counters = fds.map { countAnswers(on: $0) }
            let frames = (1...12).flatMap { request(UInt64($0), "/t/Echo", bytes: 700 * Self.kib) }
            let writers = fds.map { fd in
                let done = Gate()
                Thread { _ = sendAll(frames, to: fd); done.open() }.start()
                return done
            }
            let allAnswered = try await eventually {
                sample()
                return counters.allSatisfy { $0.value >= 12 }
            }
            #expect(allAnswered, "answered \(counters.map(\.value)) of 12 per connection")
            for done in writers { _ = try await done.wait() }
        }
        sample()
        for fd in fds { leave(fd) }
        for gate in gates {
            _ = try await gate.wait()
        }
        return peak
    }
}
