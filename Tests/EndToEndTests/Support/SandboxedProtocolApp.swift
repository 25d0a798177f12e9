import Foundation
import HealthIPC
import HealthModel
import HealthWire
import TestSupport

/// An installed app run as its own confined process: `leak-probe-client` under health-sandbox,
/// speaking the protocol directly (no SDK, so it can name objects it cannot see and send what the
/// SDK would refuse), driven one command at a time. Unlike `RawApp` (this test process connecting
/// by path), any number of them can run against one broker, each with its own identity.
final class SandboxedProtocolApp: Sendable {
    private let session: ProbeClientSession

    /// A call's failure as the client printed it.
    struct Failure: Error, Equatable, CustomStringConvertible {
        let code: Int
        let healthKitCode: HKError.Code?
        let message: String
        var description: String { "status \(code) \(healthKitCode.map { "\($0)" } ?? "-") \(message)" }
    }

    private init(session: ProbeClientSession) { self.session = session }

    /// Installs `appID` with `grants` (access, type) and starts its confined client.
    static func install(_ appID: String, on broker: BrokerProcess, grants: [(String, String)]) async throws -> SandboxedProtocolApp {
        let client = Products.path("leak-probe-client")
        _ = try await broker.install(appID: appID, executable: client)
        for (access, type) in grants { try await broker.set(appID, access, type, allowed: true) }
        return SandboxedProtocolApp(session: try ProbeClientSession(Products.path("health-sandbox"),
                                                                  ["run", appID, "--socket", broker.adminSocket, "--", client]))
    }

    func close() async { _ = await session.finish() }

    /// A unary call: the reply's bytes, or how it failed.
    func unary(_ method: HealthStoreMethod, _ message: some WireMessage) async throws -> Result<[UInt8], Failure> {
        let lines = try await session.run("unary \(method.rawValue) \(Self.hex(message.wireBytes()))", timeout: 120)
        for line in lines {
            if line.hasPrefix("reply ") { return .success(Self.bytes(String(line.dropFirst(6)))) }
            if let failure = Self.failure(line) { return .failure(failure) }
        }
        throw Failure(code: -1, healthKitCode: nil, message: "no reply: \(lines)")
    }

    /// The failure of a unary call, or nil when it succeeded.
    func failure(_ method: HealthStoreMethod, _ message: some WireMessage) async throws -> Failure? {
        if case let .failure(failure) = try await unary(method, message) { return failure }
        return nil
    }

    /// A server-streamed call read to its end: each message's bytes, or how it failed.
    func stream(_ method: HealthStoreMethod, _ message: some WireMessage) async throws -> Result<[[UInt8]], Failure> {
        let lines = try await session.run("stream \(method.rawValue) \(Self.hex(message.wireBytes()))", timeout: 120)
        if let failure = lines.lazy.compactMap(Self.failure).first { return .failure(failure) }
        return .success(lines.filter { $0.hasPrefix("item ") }.map { Self.bytes(String($0.dropFirst(5))) })
    }

    func save(_ records: [SampleRecord]) async throws -> [UUID] {
        try SavedUUIDs(wire: try await unary(.save, SampleList(records)).get()).uuids
    }

    func query(_ spec: SampleQuerySpec) async throws -> [SampleRecord] {
        let lines = try await session.run("stream \(HealthStoreMethod.querySamples.rawValue) \(Self.hex(spec.wireBytes()))", timeout: 120)
        if let failure = lines.lazy.compactMap(Self.failure).first { throw failure }
        return try lines.filter { $0.hasPrefix("item ") }.flatMap { try SampleList(wire: Self.bytes(String($0.dropFirst(5)))).samples }
    }

    /// `query`, timed inside the app's own process (`timed-stream`): when its request left and
    /// its answer ended, on CLOCK_MONOTONIC (`MonotonicClock`), whatever this process was busy with.
    func timedQuery(_ spec: SampleQuerySpec) async throws -> (found: [SampleRecord], started: UInt64, ended: UInt64) {
        let lines = try await session.run("timed-stream \(HealthStoreMethod.querySamples.rawValue) \(Self.hex(spec.wireBytes()))",
                                          timeout: 120)
        if let failure = lines.lazy.compactMap(Self.failure).first { throw failure }
        let clock = lines.first { $0.hasPrefix("clock ") }?.split(separator: " ").dropFirst().compactMap { UInt64($0) } ?? []
        guard clock.count == 2 else { throw Failure(code: -1, healthKitCode: nil, message: "no clock line: \(lines)") }
        let found = try lines.filter { $0.hasPrefix("item ") }.flatMap { try SampleList(wire: Self.bytes(String($0.dropFirst(5)))).samples }
        return (found, clock[0], clock[1])
    }

    private static func failure(_ line: String) -> Failure? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0] == "status", let code = Int(fields[1]), let healthKit = Int(fields[2]) else { return nil }
        return Failure(code: code, healthKitCode: HKError.Code(rawValue: healthKit),
                       message: String(decoding: bytes(String(fields[3])), as: UTF8.self))
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "-" : bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func bytes(_ text: String) -> [UInt8] {
        guard text != "-" else { return [] }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex), next > index {
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }
}
