import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire

/// One hostile app's attack per issue-13 finding, run by this process (the hostile app).
/// `start` begins it and returns what ends it.
struct Attack: Sendable {
    let name: String
    let start: @Sendable (BenchHealthd) async throws -> @Sendable () -> Void

    static let stepCount = HKQuantityTypeIdentifier.stepCount.rawValue

    static let all: [Attack] = [
        Attack(name: "none (baseline)") { _ in {} },
        Attack(name: "1,000 pipelined calls, replies unread ×8 conns") { healthd in
            let request = TypeIdentifierMessage(stepCount).wireBytes()
            let flood = (1...1_000).flatMap { FrameCodec.encode(.request(UInt64($0), HealthStoreMethod.authorizationStatus.rawValue, request)) }
            return try rawFlood(healthd, connections: 8, bytes: flood)
        },
        Attack(name: "large queries, replies unread ×8 conns") { healthd in
            let query = SampleQuerySpec(typeIdentifier: stepCount).wireBytes()
            let flood = (1...2).flatMap { FrameCodec.encode(.request(UInt64($0), HealthStoreMethod.querySamples.rawValue, query)) }
            return try rawFlood(healthd, connections: 8, bytes: flood)
        },
        Attack(name: "32 concurrent large queries, read") { healthd in
            let client = try RPCClient.connect(path: healthd.appSocket)
            let query = SampleQuerySpec(typeIdentifier: stepCount).wireBytes()
            let tasks = (0..<32).map { _ in
                Task {
                    while !Task.isCancelled {
                        do { for try await _ in client.serverStream(HealthStoreMethod.querySamples.rawValue, query) {} } catch {}
                    }
                }
            }
            return {
                tasks.forEach { $0.cancel() }
                client.close()
            }
        },
        Attack(name: "465 long-running queries") { healthd in
            try streams(healthd, count: 465, method: HealthStoreMethod.observeChanges.rawValue,
                        payload: TypePredicateSpec(typeIdentifier: stepCount).wireBytes())
        },
        Attack(name: "464 permission prompts") { healthd in
            let ask = AuthorizationTypes(share: [], read: [HKQuantityTypeIdentifier.heartRate.rawValue]).wireBytes()
            let clients = try (0..<16).map { _ in try RPCClient.connect(path: healthd.appSocket) }
            let tasks = (0..<464).map { index in
                Task { _ = try? await clients[index % clients.count].unary(HealthStoreMethod.requestAuthorization.rawValue, ask) }
            }
            return {
                tasks.forEach { $0.cancel() }
                clients.forEach { $0.close() }
            }
        },
        Attack(name: "4 MiB frame headers without body ×16") { healthd in
            let partial = FrameReader.prefix(forBodyLength: WireLimits.maxFrameBytes) + [UInt8](repeating: 0x0A, count: 64 * 1024)
            return try rawFlood(healthd, connections: 16, bytes: partial)
        },
        Attack(name: "refused-connection flood (uninstalled exe)") { healthd in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: healthd.strangerExecutable)
            process.arguments = ["refused-flood", healthd.appSocket]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return { process.terminate() }
        },
    ]

    /// `connections` raw connections each sending `bytes` (from a thread of their own: the
    /// broker stops reading them) and never reading.
    static func rawFlood(_ healthd: BenchHealthd, connections: Int, bytes: [UInt8]) throws -> @Sendable () -> Void {
        let sockets = try (0..<connections).map { _ in try UnixSocket.connect(path: healthd.appSocket) }
        for fd in sockets {
            Thread {
                var offset = 0
                while offset < bytes.count {
                    let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if written <= 0 { return }
                    offset += written
                }
            }.start()
        }
        return { for fd in sockets { shutdown(fd, Int32(SHUT_RDWR)); close(fd) } }
    }

    /// `count` streams held open over 16 connections.
    static func streams(_ healthd: BenchHealthd, count: Int, method: String, payload: [UInt8]) throws -> @Sendable () -> Void {
        let clients = try (0..<16).map { _ in try RPCClient.connect(path: healthd.appSocket) }
        let tasks = (0..<count).map { index in
            Task { do { for try await _ in clients[index % clients.count].serverStream(method, payload) {} } catch {} }
        }
        return {
            tasks.forEach { $0.cancel() }
            clients.forEach { $0.close() }
        }
    }

    /// In the uninstalled copy: connects and calls as fast as it can until killed.
    static func refusedFlood(socket: String) async {
        let request = TypeIdentifierMessage(stepCount).wireBytes()
        while true {
            guard let client = try? RPCClient.connect(path: socket) else { continue }
            _ = try? await client.unary(HealthStoreMethod.authorizationStatus.rawValue, request)
            client.close()
        }
    }
}
