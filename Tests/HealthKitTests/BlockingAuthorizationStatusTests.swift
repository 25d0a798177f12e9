import Foundation
import HealthIPC
import HealthWire
@testable import HealthKit
import Testing

/// `authorizationStatus(for:)` blocks its caller for a round-trip. These tests block every
/// cooperative-pool thread at once, so the fake broker here answers on its own thread with no
/// tasks (`FakeBroker`'s ServerConnection would need the pool too and hang for its own reasons).
@Suite(.timeLimit(.minutes(10))) struct BlockingAuthorizationStatusTests {
    /// Answers every request on the reading thread: stepCount is authorized, anything else denied.
    func storeWithThreadOnlyBroker() throws -> (HKHealthStore, RPCClient) {
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        let server = FrameConnection(fd: serverEnd)
        Thread {
            _ = server.readFrames { frame in
                guard frame.kind == .request else { return }
                let type = (try? TypeIdentifierMessage(wire: frame.payload))?.identifier
                let status: HKAuthorizationStatus = type == "HKQuantityTypeIdentifierStepCount" ? .sharingAuthorized : .sharingDenied
                usleep(10_000)  // long enough that every caller is blocked at once
                try? server.send(.response(frame.callID, StatusValue(status.rawValue).wireBytes()))
            }
            server.close()
        }.start()
        let client = RPCClient(fd: clientEnd)
        return (HKHealthStore(connection: BrokerConnection(client: client)), client)
    }

    /// More concurrent callers than pool threads: were the round-trip run on the pool, the
    /// blocked callers would starve it and this would never finish.
    @Test func callersBlockingEveryPoolThreadStillGetAnswers() async throws {
        let (store, client) = try storeWithThreadOnlyBroker()
        defer { client.close() }
        let callers = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
        let statuses = await withTaskGroup(of: HKAuthorizationStatus.self) { group in
            for index in 0..<callers {
                group.addTask {
                    store.authorizationStatus(for: index.isMultiple(of: 2) ? HKQuantityType(.stepCount) : HKQuantityType(.heartRate))
                }
            }
            return await group.reduce(into: [HKAuthorizationStatus]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == .sharingAuthorized }.count == (callers + 1) / 2)
        #expect(statuses.filter { $0 == .sharingDenied }.count == callers / 2)
    }

    @MainActor @Test func callFromTheMainThreadReturns() throws {
        let (store, client) = try storeWithThreadOnlyBroker()
        defer { client.close() }
        #expect(store.authorizationStatus(for: HKQuantityType(.stepCount)) == .sharingAuthorized)
    }

    @Test func unreachableBrokerAnswersNotDetermined() {
        let store = HKHealthStore(connection: BrokerConnection(environment: [
            LaunchEnvironment.appSocketPathVariable: "/nonexistent-openhealth-\(getpid())/app.sock",
        ]))
        #expect(store.authorizationStatus(for: HKQuantityType(.stepCount)) == .notDetermined)
    }
}
