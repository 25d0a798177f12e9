import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing

/// The backstop behind every answer's own cut (`CallResponder.oversized`): a frame larger than a
/// peer accepts (`WireLimits.maxFrameBytes`) never leaves. Sent, the peer's `FrameReader` would
/// refuse it and end the whole connection — every other call on it with this one. Instead only
/// this call ends, RESOURCE_EXHAUSTED with `errorDataSizeExceeded`, and the connection goes on.
/// With the check removed, the client's reader refuses the frame and both calls below fail.
@Suite(.timeLimit(.minutes(10))) struct OversizedAnswerTests {
    /// A payload whose frame is one byte over the limit (the frame's own fields included).
    static let oversized = [UInt8](repeating: 7, count: WireLimits.maxFrameBytes)
    /// The largest payload whose frame still fits.
    static let largestFitting: [UInt8] = {
        var count = WireLimits.maxFrameBytes
        while FrameCodec.encode(.response(1, [UInt8](repeating: 7, count: count))).count - FrameCodec.lengthPrefixBytes
                > WireLimits.maxFrameBytes { count -= 1 }
        return [UInt8](repeating: 7, count: count)
    }()

    func start() throws -> RPCClient {
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        let server = ServerConnection(fd: serverEnd, maxCallsInFlight: 4)
        Thread {
            _ = server.serve { call in
                switch call.method {
                case "/t/Huge": call.responder.respond(Self.oversized)
                case "/t/Fits": call.responder.respond(Self.largestFitting)
                case "/t/HugeStream":
                    try? await call.responder.send([1])
                    do {
                        try await call.responder.send(Self.oversized)
                    } catch {
                        // The call is over: this ending is dropped, the status sent was the refusal.
                        call.responder.finish()
                        return
                    }
                    call.responder.finish()
                default: call.responder.respond([])
                }
            }
        }.start()
        return RPCClient(fd: clientEnd)
    }

    static func refusal(_ body: () async throws -> Void) async -> RPCStatus? {
        do {
            try await body()
            return nil
        } catch let status as RPCStatus {
            return status
        } catch {
            return nil
        }
    }

    @Test func anOversizedReplyEndsOnlyItsCall() async throws {
        let client = try start()
        defer { client.close() }
        let status = await Self.refusal { _ = try await client.unary("/t/Huge", []) }
        #expect(status?.code == .resourceExhausted, "\(String(describing: status))")
        #expect(status?.healthKitCode == .errorDataSizeExceeded)
        #expect(status?.message.contains("frame limit") == true)
        // The same connection still answers, up to the largest frame that fits.
        #expect(try await client.unary("/t/Fits", []).count == Self.largestFitting.count)
        #expect(try await client.unary("/t/Other", []) == [])
    }

    @Test func anOversizedStreamMessageEndsOnlyItsStream() async throws {
        let client = try start()
        defer { client.close() }
        var received: [[UInt8]] = []
        let status = await Self.refusal {
            for try await message in client.serverStream("/t/HugeStream", []) { received.append(message) }
        }
        #expect(received == [[1]])
        #expect(status?.code == .resourceExhausted, "\(String(describing: status))")
        #expect(try await client.unary("/t/Other", []) == [])
    }
}
