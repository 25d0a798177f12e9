import Foundation
import Glibc
import HealthIPC
import HealthWire
import Synchronization
import Testing

/// The flow-control choke point (`CallResponder`): a stream message is checked (`ifStillCurrent`)
/// and queued only once everything before it went to the socket. So when what a stream may send
/// changes while its client reads nothing (the user revokes a grant), every message the client
/// receives afterwards beyond what the kernel already held is computed under the change.
///
/// Over a real socketpair: the handler sends 4 KiB messages, each marked with the generation it
/// was computed in and current only while that generation is; the test waits until the handler
/// stops producing, notes what the kernel holds for the client, moves the generation on, and
/// reads everything. Before the choke point, a handler queued up to the 1 MiB pause threshold
/// beyond the socket, and those messages — about 256 of them — arrived after the change.
@Suite(.timeLimit(.minutes(10))) struct StreamHandOffTests {
    static let messageBytes = 4_096

    final class Shared: Sendable {
        let generation = Atomic<Int>(0)
        let produced = Atomic<Int>(0)
    }

    @Test func aMessageIsCheckedWhenItIsHandedOverNotWhenTheOneBeforeItWas() async throws {
        let shared = Shared()
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        let server = ServerConnection(fd: serverEnd, limits: ConnectionLimits(unreadRepliesTimeout: .seconds(120)))
        Thread {
            _ = server.serve { call in
                do {
                    for _ in 0..<2_000 {
                        while true {
                            let made = shared.generation.load(ordering: .sequentiallyConsistent)
                            let payload = [UInt8(made)] + [UInt8](repeating: 7, count: Self.messageBytes - 1)
                            let sent = try await call.responder.send(payload) {
                                shared.generation.load(ordering: .sequentiallyConsistent) == made
                            }
                            if sent { break }
                        }
                        shared.produced.add(1, ordering: .relaxed)
                    }
                    call.responder.finish()
                } catch {
                    return
                }
            }
        }.start()
        let client = FrameConnection(fd: clientEnd)
        try client.send(.request(1, "/t/Stream", []))

        // Until the handler stops producing: no message for a whole second (one quiet look can be
        // a loaded machine not running it), within a 120 s hang guard.
        var stalled = -1, quietLooks = 0
        for _ in 0..<480 where quietLooks < 4 {
            try await Task.sleep(for: .milliseconds(250))
            let now = shared.produced.load(ordering: .relaxed)
            quietLooks = now == stalled ? quietLooks + 1 : 0
            stalled = now
        }
        try #require(stalled < 2_000, "the handler never stalled")
        var inKernel: Int32 = 0
        try #require(ioctl(clientEnd, UInt(FIONREAD), &inKernel) == 0)
        shared.generation.store(1, ordering: .sequentiallyConsistent)

        let received = Mutex<[UInt8]>([])
        let (ended, end) = AsyncStream<Void>.makeStream()
        Thread {
            _ = client.readFrames { frame in
                switch frame.kind {
                case .streamMessage: received.withLock { $0.append(frame.payload.first ?? 255) }
                case .endOfStream:
                    end.yield()
                    end.finish()
                default: break
                }
            }
            end.finish()
        }.start()
        for await _ in ended { break }
        client.close()

        let generations = received.withLock { $0 }
        let frameBytes = FrameCodec.encode(Frame(callID: 1, kind: .streamMessage, payload: [UInt8](repeating: 0, count: Self.messageBytes))).count
        // What the kernel held whole or in part, and the rest of the one message begun.
        let allowed = (Int(inKernel) + frameBytes - 1) / frameBytes + 1
        let old = generations.prefix { $0 == 0 }.count
        #expect(generations.count == 2_000, "the stream did not finish: \(generations.count) messages")
        #expect(old <= allowed, "\(old) messages computed before the change arrived after it; the kernel held \(inKernel) bytes (\(allowed) messages)")
        #expect(generations.dropFirst(old).allSatisfy { $0 == 1 }, "a message of the old generation came after one of the new")
    }
}
