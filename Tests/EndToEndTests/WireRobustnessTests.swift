import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Malformed, oversize and hostile frames from a connected app never take the broker down, and
/// other clients keep working (DESIGN.md §4).
@Suite(.timeLimit(.minutes(10)), .serialized) struct WireRobustnessTests {
    func writeRaw(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// After each attack: the broker process is alive and a fresh app connection is served.
    func expectBrokerServes(_ broker: BrokerProcess) async throws {
        #expect(broker.isRunning, "healthd died: \(broker.log)")
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        let reply = try await client.unary(HealthStoreMethod.authorizationStatus.rawValue,
                                           TypeIdentifierMessage(HKQuantityTypeIdentifier.stepCount.rawValue).wireBytes())
        #expect(try StatusValue(wire: reply).rawValue == 0)
        #expect(try await broker.healthctl(["status"]).status == 0)
    }

    @Test func hostileFramesDoNotTakeTheBrokerDown() async throws {
        let broker = try BrokerProcess()
        try await broker.install(appID: "org.test.fuzz", executable: Products.testProcessExecutable)
        try await broker.allowDirect("org.test.fuzz")

        let attacks: [(String, [UInt8])] = [
            ("oversize length prefix", FrameReader.prefix(forBodyLength: WireLimits.maxFrameBytes + 1)),
            ("maximum length prefix", [0xFF, 0xFF, 0xFF, 0xFF]),
            ("zero length", [0, 0, 0, 0]),
            ("garbage body", FrameReader.prefix(forBodyLength: 6) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
            ("undefined frame kind", FrameReader.prefix(forBodyLength: 4) + [0x08, 0x01, 0x18, 99]),
            ("request with a malformed payload",
             FrameCodec.encode(.request(1, HealthStoreMethod.save.rawValue, [0x0A, 0xFF, 0xFF, 0xFF, 0x0F]))),
            ("deeply nested predicate", FrameCodec.encode(.request(1, HealthStoreMethod.querySamples.rawValue, Self.nestedQuery(depth: 10_000)))),
            ("truncated frame then close", Array(FrameCodec.encode(.request(1, "/x", [1, 2, 3])).dropLast(2))),
        ]
        for (name, bytes) in attacks {
            let fd = try UnixSocket.connect(path: broker.appSocket)
            writeRaw(bytes, to: fd)
            // Give the broker a moment to read it; then hang up.
            usleep(50_000)
            close(fd)
            try await expectBrokerServes(broker)
            #expect(broker.isRunning, "after \(name)")
        }
    }

    @Test func aMalformedPayloadGetsInvalidArgumentAndTheConnectionStaysUsable() async throws {
        let broker = try BrokerProcess()
        try await broker.install(appID: "org.test.fuzz2", executable: Products.testProcessExecutable)
        try await broker.allowDirect("org.test.fuzz2")
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        do {
            _ = try await client.unary(HealthStoreMethod.save.rawValue, [0x0A, 0xFF, 0xFF, 0xFF, 0x0F])
            Issue.record("malformed payload accepted")
        } catch let status as RPCStatus {
            #expect(status.code == .invalidArgument)
        }
        let deep = Self.nestedQuery(depth: 10_000)
        do {
            for try await _ in client.serverStream(HealthStoreMethod.querySamples.rawValue, deep) {}
            Issue.record("deep predicate accepted")
        } catch let status as RPCStatus {
            #expect(status.code == .invalidArgument)
            #expect(status.message.contains("nested deeper"))
        }
        let reply = try await client.unary(HealthStoreMethod.authorizationStatus.rawValue,
                                           TypeIdentifierMessage(HKQuantityTypeIdentifier.stepCount.rawValue).wireBytes())
        #expect(try StatusValue(wire: reply).rawValue == 0)
    }

    // Calls beyond a connection's in-flight limit: HealthIPCTests' callsBeyondTheInFlightLimitAreRefused
    // (the per-app prompt budget, AppBudgetEndToEndTests, now refuses requests that wait for the
    // user long before 32 of them can be held open here).

    /// A SampleQueryRequest whose predicate nests `depth` NOT levels (hand-serialized).
    static func nestedQuery(depth: Int) -> [UInt8] {
        var predicate: [UInt8] = []
        for _ in 0..<depth {
            let compound: [UInt8] = [0x08, 0x03] + (predicate.isEmpty ? [] : [0x12] + ProtobufVarint.encode(predicate.count) + predicate)
            predicate = [0x22] + ProtobufVarint.encode(compound.count) + compound
        }
        let type = Array(HKQuantityTypeIdentifier.stepCount.rawValue.utf8)
        return [0x0A] + ProtobufVarint.encode(type.count) + type + [0x12] + ProtobufVarint.encode(predicate.count) + predicate
    }
}
