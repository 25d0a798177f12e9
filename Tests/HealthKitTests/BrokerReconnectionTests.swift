import Foundation
import Glibc
import HealthIPC
import HealthWire
@testable import HealthKit
import Testing

/// A connection dialled by path is replaced after the broker drops it (e.g. healthd restarted).
@Suite(.timeLimit(.minutes(10))) struct BrokerReconnectionTests {
    @Test func lostPathConnectionIsDialledAgainOnTheNextCall() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-sdk-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("app.sock").path
        let listener = try UnixSocket.listen(path: path, mode: 0o600)
        defer { close(listener) }
        Thread {
            // First connection: closed at once, as by a broker going away.
            if let first = try? UnixSocket.accept(listener) { close(first) }
            guard let second = try? UnixSocket.accept(listener) else { return }
            _ = ServerConnection(fd: second).serve { call in
                call.responder.respond(StatusValue(HKAuthorizationRequestStatus.unnecessary.rawValue).wireBytes())
            }
        }.start()
        let store = HKHealthStore(connection: BrokerConnection(environment: [LaunchEnvironment.appSocketPathVariable: path]))
        await #expect {
            _ = try await store.getRequestStatusForAuthorization(toShare: [], read: [HKQuantityType(.stepCount)])
        } throws: { ($0 as? HKError)?.code == .errorHealthDataUnavailable }
        #expect(try await store.getRequestStatusForAuthorization(toShare: [], read: [HKQuantityType(.stepCount)]) == .unnecessary)
    }
}
