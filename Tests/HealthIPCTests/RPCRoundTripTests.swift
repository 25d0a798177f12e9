import Foundation
import Glibc
import Synchronization
import HealthIPC
import HealthWire
import Testing

/// Client and server halves over a real socketpair, with the server on its own thread.
@Suite(.timeLimit(.minutes(10))) struct RPCRoundTripTests {
    func start(_ handler: @escaping @Sendable (IncomingCall) async -> Void) throws -> (RPCClient, ServerConnection) {
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        let server = ServerConnection(fd: serverEnd, maxCallsInFlight: 4)
        Thread { _ = server.serve(handler) }.start()
        return (RPCClient(fd: clientEnd), server)
    }

    @Test func unaryEchoAndFailure() async throws {
        let (client, _) = try start { call in
            if call.method == "/t/Echo" { call.responder.respond(call.payload) }
            else { call.responder.fail(RPCStatus(.unimplemented, "no \(call.method)"), streaming: false) }
        }
        #expect(try await client.unary("/t/Echo", [1, 2, 3]) == [1, 2, 3])
        await #expect(throws: RPCStatus(.unimplemented, "no /t/Nope")) { try await client.unary("/t/Nope", []) }
        client.close()
    }

    @Test func streamDeliversEveryMessageThenEnds() async throws {
        let (client, _) = try start { call in
            for i in 0..<10 { try? await call.responder.send([UInt8(i)]) }
            call.responder.finish()
        }
        var received: [UInt8] = []
        for try await message in client.serverStream("/t/Count", []) { received += message }
        #expect(received == Array(0..<10))
        client.close()
    }

    @Test func cancellingAStreamStopsTheServerTask() async throws {
        let stopped = Mutex(false)
        let (client, _) = try start { call in
            do {
                while true {
                    try await call.responder.send([0])
                    try await Task.sleep(for: .milliseconds(5))
                }
            } catch {
                stopped.withLock { $0 = true }
            }
        }
        for try await _ in client.serverStream("/t/Forever", []) { break }
        for _ in 0..<200 where !stopped.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(stopped.withLock { $0 })
        client.close()
    }

    @Test func callsBeyondTheInFlightLimitAreRefused() async throws {
        let started = Counter()
        let (client, _) = try start { call in
            if call.method == "/t/Hang" {
                started.add()
                try? await Task.sleep(for: .seconds(30))
            }
            call.responder.respond([])
        }
        let hanging = (0..<4).map { _ in Task { try await client.unary("/t/Hang", []) } }
        // The fifth call goes once the server runs all four (a fixed pause could end before a
        // loaded machine sent them); 120 s is a hang guard.
        for _ in 0..<12_000 where started.value < 4 { try await Task.sleep(for: .milliseconds(10)) }
        try #require(started.value == 4, "\(started.value) of 4 hanging calls reached the server")
        await #expect(throws: RPCStatus.self) { try await client.unary("/t/Quick", []) }
        for task in hanging { task.cancel() }
        client.close()
    }

    @Test func oversizeFrameGetsAStatusAndTheConnectionCloses() async throws {
        let (client, server) = try start { $0.responder.respond([]) }
        // A raw length prefix over the limit, written behind the client's back.
        var prefix = FrameReader.prefix(forBodyLength: WireLimits.maxFrameBytes + 1)
        _ = write(client.descriptor, &prefix, 4)
        do {
            _ = try await client.unary("/t/After", [])
            Issue.record("the call after an oversize frame should fail")
        } catch let status as RPCStatus {
            #expect([.resourceExhausted, .unavailable].contains(status.code))
        }
        #expect(server.connection.isClosed)
    }
}
