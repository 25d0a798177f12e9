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

@Suite(.timeLimit(.minutes(10))) struct HKSourceQueryDescriptorTests {
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

    /// Cancelling the task awaiting `result(for:)` stops the query: healthd sees its call
    /// cancelled and the caller gets HealthKit's cancellation error, not a hang or an empty list.
    @Test func cancellingTheCallerStopsTheQueryOnTheBroker() async throws {
        let arrived = Mutex(false)
        let cancelledThere = Mutex(false)
        let broker = try FakeBroker { call in
            arrived.withLock { $0 = true }
            try? await Task.sleep(for: .seconds(60))  // holds the answer until the call is cancelled
            if Task.isCancelled { cancelledThere.withLock { $0 = true } }
            call.responder.finish()
        }
        defer { broker.close() }
        let store = broker.store
        let task = Task {
            try await HKSourceQueryDescriptor(predicate: .categorySample(type: HKCategoryType(.sleepAnalysis))).result(for: store)
        }
        #expect(try await eventually { arrived.withLock { $0 } })
        task.cancel()
        let code: HKError.Code? = switch await task.result {
        case .success: nil
        case let .failure(error): (error as? HKError)?.code
        }
        #expect(code == .errorUserCanceled)
        #expect(try await eventually { cancelledThere.withLock { $0 } })
    }
}
