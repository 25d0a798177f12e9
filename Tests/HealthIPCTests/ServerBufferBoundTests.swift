import Foundation
import Glibc
import HealthIPC
import HealthWire
import Synchronization
import Testing
import TestSupport

/// A server connection's requests and replies counted against its owner's share of a
/// `BufferBudget`, over real socketpairs with raw frames on the client side: claimed when a
/// frame's prefix arrives, given back when the call ends, the reply is written, or the
/// connection dies midway.
@Suite(.timeLimit(.minutes(10))) struct ServerBufferBoundTests {
    static let mib = 1 << 20

    /// A served connection on `budget` as `owner`; `ended` fires once `serve` has returned.
    func start(_ budget: BufferBudget, owner: String, ended: Gate = Gate(),
               _ handler: @escaping @Sendable (IncomingCall) async -> Void) throws -> Int32 {
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        let server = ServerConnection(fd: serverEnd, buffers: BufferAccount(budget: budget, owner: owner))
        Thread {
            _ = server.serve(handler)
            ended.open()
        }.start()
        return clientEnd
    }

    /// Waits (hang guard 120 s) until `condition` holds.
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        let until = Date().addingTimeInterval(120)
        while !condition() {
            if Date() > until { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    @Test func aFrameIsClaimedAtItsPrefixAndGivenBackWhenItIsCutOff() async throws {
        let budget = BufferBudget(total: 64 * Self.mib, perOwner: 8 * Self.mib, floor: 0)
        let ended = Gate()
        let fd = try start(budget, owner: "a", ended: ended) { $0.responder.respond([]) }
        // A prefix announcing 1 MiB and a little of the body: claimed whole before it is read.
        sendAll(FrameReader.prefix(forBodyLength: Self.mib) + [UInt8](repeating: 0x0A, count: 1_000), to: fd)
        #expect(try await eventually { budget.inUse(by: "a") == Self.mib }, "the announced frame was not claimed: \(budget.inUse)")
        close(fd)
        #expect(try await ended.wait())
        #expect(budget.inUse == 0, "\(budget.inUse) bytes still claimed after the connection died mid-frame")
    }

    @Test func aReplyLeftUnreadIsGivenBackWhenThePeerLeaves() async throws {
        let budget = BufferBudget(total: 64 * Self.mib, perOwner: 8 * Self.mib, floor: 0)
        let ended = Gate()
        let fd = try start(budget, owner: "a", ended: ended) { call in
            call.responder.respond([UInt8](repeating: 7, count: 3 * Self.mib))
        }
        sendAll(FrameCodec.encode(.request(1, "/t/Big", [])), to: fd)
        // The reply waits unread: most of it is buffered in healthd, counted against the owner.
        #expect(try await eventually { budget.inUse(by: "a") > Self.mib }, "the unread reply was not counted: \(budget.inUse)")
        close(fd)
        #expect(try await ended.wait())
        #expect(try await eventually { budget.inUse == 0 }, "\(budget.inUse) bytes still counted after the peer left mid-reply")
    }

    @Test func callsGiveTheirBytesBackWhenTheyEnd() async throws {
        let budget = BufferBudget(total: 64 * Self.mib, perOwner: 8 * Self.mib, floor: 0)
        let fd = try start(budget, owner: "a") { $0.responder.respond([1]) }
        defer { close(fd) }
        let client = FrameConnection(fd: dup(fd))
        let answers = AsyncStream<Frame>.makeStream()
        Thread { _ = client.readFrames { answers.continuation.yield($0) } }.start()
        // Sent from a thread of its own: past the share the server stops reading until calls end,
        // and a blocked send must not hold a thread of the pool the handlers run on.
        Thread {
            for id in 1...20 { try? client.send(.request(UInt64(id), "/t/Echo", [UInt8](repeating: 1, count: 512 << 10))) }
        }.start()
        var iterator = answers.stream.makeAsyncIterator()
        for _ in 1...20 { _ = await iterator.next() }
        // 20 × 512 KiB went through a share of 8 MiB: each call gave its bytes back.
        #expect(try await eventually { budget.inUse == 0 }, "\(budget.inUse) bytes still claimed after every call ended")
        client.close()
    }

    /// One owner at its share stops being read; another owner's call goes through meanwhile.
    @Test func anOwnerAtItsShareStallsOnlyItself() async throws {
        let budget = BufferBudget(total: 64 * Self.mib, perOwner: 2 * Self.mib, floor: 0)
        let release = Gate()
        let started = Counter()
        let hog = try start(budget, owner: "hog") { call in
            started.add()
            _ = try? await release.wait()
            call.responder.respond([])
        }
        defer { close(hog) }
        let frame = FrameCodec.encode(.request(1, "/t/Hold", [UInt8](repeating: 1, count: 700 << 10)))
        sendAll(frame, to: hog)
        sendAll(FrameCodec.encode(.request(2, "/t/Hold", [UInt8](repeating: 1, count: 700 << 10))), to: hog)
        #expect(try await eventually { started.value == 2 })
        // The third does not fit the 2 MiB share beside the two held: written from a thread of
        // its own, since healthd stops reading this peer and the write blocks.
        let third = FrameCodec.encode(.request(3, "/t/Hold", [UInt8](repeating: 1, count: 700 << 10)))
        Thread { sendAll(third, to: hog) }.start()

        let victim = try start(budget, owner: "victim") { $0.responder.respond($0.payload) }
        defer { close(victim) }
        let client = FrameConnection(fd: dup(victim))
        try client.send(.request(1, "/t/Echo", [UInt8](repeating: 2, count: 700 << 10)))
        // Read on a thread of its own: a blocking read here would hold a thread of the pool the
        // server's handlers run on.
        let answer = Mutex<Int?>(nil)
        let answered = Gate()
        Thread {
            _ = client.readFrames { frame in
                answer.withLock { $0 = frame.payload.count }
                client.close()
            }
            answered.open()
        }.start()
        #expect(try await answered.wait())
        #expect(answer.withLock { $0 } == 700 << 10, "the victim's call was not answered")
        // The hog is still held at its share: its third call never started.
        #expect(started.value == 2, "the hog's third call started beyond its share")
        #expect(budget.inUse(by: "hog") <= 2 * Self.mib)
        release.open()
        #expect(try await eventually { started.value == 3 }, "the hog's third call never started once room was made")
    }
}

/// Opens once; `wait` returns true once it is open (false after a 120 s hang guard).
final class Gate: Sendable {
    private let isOpen = Mutex(false)

    func open() { isOpen.withLock { $0 = true } }

    func wait() async throws -> Bool {
        let until = Date().addingTimeInterval(120)
        while !isOpen.withLock({ $0 }) {
            if Date() > until { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }
}
