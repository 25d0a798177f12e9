import Foundation
import HealthIPC
import HealthWire
@testable import HealthKit
import Synchronization
import Testing

/// A store that records what it executes and then runs it for real, on a given connection.
private final class RecordingHealthStore: HKHealthStore, @unchecked Sendable {
    let executed = Mutex<[HKQuery]>([])

    override init(connection: BrokerConnection) {
        super.init(connection: connection)
    }

    override func execute(_ query: HKQuery) {
        executed.withLock { $0.append(query) }
        super.execute(query)
    }
}

@Suite(.timeLimit(.minutes(2))) struct HKSourceQueryDescriptorTests {
    /// Apple: `result(for:)` "creates and executes an HKSourceQuery"; the sources come back as
    /// an array, here sorted by name and then bundle identifier whatever order healthd sent.
    @Test func resultRunsAnHKSourceQueryThroughExecuteAndSortsTheSources() async throws {
        let requested = Mutex<TypePredicateSpec?>(nil)
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        let server = ServerConnection(fd: serverEnd)
        Thread {
            _ = server.serve { call in
                requested.withLock { $0 = try? TypePredicateSpec(wire: call.payload) }
                call.responder.respond(SourceList([
                    SourceRecord(bundleIdentifier: "org.example.b", name: "Beta"),
                    SourceRecord(bundleIdentifier: "org.example.z", name: "Alpha"),
                    SourceRecord(bundleIdentifier: "org.example.a", name: "Alpha"),
                ]).wireBytes())
            }
        }.start()
        let connection = BrokerConnection(client: RPCClient(fd: clientEnd))
        defer { try? connection.client().close() }
        let store = RecordingHealthStore(connection: connection)
        let sleep = HKCategoryType(.sleepAnalysis)

        let sources = try await HKSourceQueryDescriptor(predicate: .categorySample(type: sleep)).result(for: store)

        #expect(sources.map(\.bundleIdentifier) == ["org.example.a", "org.example.z", "org.example.b"])
        #expect(store.executed.withLock { $0.count == 1 && $0.first is HKSourceQuery })
        #expect(requested.withLock { $0 } == TypePredicateSpec(typeIdentifier: sleep.identifier))
    }
}
