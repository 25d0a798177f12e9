import Foundation
@testable import HealthKit
import Testing

/// Session mirroring (iOS 17 / watchOS 10) on a machine with no paired device.
///
/// Apple: `HKWorkoutSession.type` "indicates whether the session is a primary session or a
/// mirrored session" (developer.apple.com/documentation/healthkit/hkworkoutsession/type); the store
/// calls `workoutSessionMirroringStartHandler` "on the companion iPhone when someone starts a
/// mirrored workout on Apple Watch" (…/hkhealthstore/workoutsessionmirroringstarthandler);
/// `sendToRemoteWorkoutSession(data:completion:)` reports `success` false with an error when the
/// data is not sent (…/hkworkoutsession/sendtoremoteworkoutsession(data:completion:)).
/// None of these reaches healthd: the store points at no socket.
@Suite(.timeLimit(.minutes(10))) struct WorkoutMirroringTests {
    static func store() -> HKHealthStore {
        HKHealthStore(connection: BrokerConnection(environment: ["OPENHEALTH_APP_SOCKET": "/nonexistent/openhealth-test.sock"]))
    }

    static func session(_ store: HKHealthStore = store()) throws -> HKWorkoutSession {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = .running
        return try HKWorkoutSession(healthStore: store, configuration: configuration)
    }

    @Test func aSessionCreatedHereIsThePrimaryOne() throws {
        #expect(try Self.session().type == .primary)
        #expect(HKWorkoutSessionType.primary.rawValue == 0 && HKWorkoutSessionType.mirrored.rawValue == 1)
    }

    @Test func sendingToTheRemoteSessionFailsInBothFormsForWantOfAPairedDevice() async throws {
        let session = try Self.session()
        let error = await #expect(throws: HKError.self) { try await session.sendToRemoteWorkoutSession(data: Data([1])) }
        #expect(error?.code == .errorHealthDataUnavailable)
        let (sent, completionError) = await withCheckedContinuation { continuation in
            session.sendToRemoteWorkoutSession(data: Data([1])) { continuation.resume(returning: ($0, $1)) }
        }
        #expect(!sent && (completionError as? HKError)?.code == .errorHealthDataUnavailable)
    }

    @Test func startingAndStoppingMirroringFail() async throws {
        let session = try Self.session()
        let startError = await #expect(throws: HKError.self) { try await session.startMirroringToCompanionDevice() }
        #expect(startError?.code == .errorHealthDataUnavailable)
        let stopError = await #expect(throws: HKError.self) { try await session.stopMirroringToCompanionDevice() }
        #expect(stopError?.code == .errorHealthDataUnavailable)
        let (started, completionError) = await withCheckedContinuation { continuation in
            session.startMirroringToCompanionDevice { continuation.resume(returning: ($0, $1)) }
        }
        #expect(!started && (completionError as? HKError)?.code == .errorHealthDataUnavailable)
    }

    /// The handler is kept as set, and a session the app runs itself does not call it.
    @Test func theMirroringStartHandlerIsKeptAndNotCalledForTheAppsOwnSession() async throws {
        let store = Self.store()
        #expect(store.workoutSessionMirroringStartHandler == nil)
        let calls = Calls()
        store.workoutSessionMirroringStartHandler = { _ in calls.record() }
        #expect(store.workoutSessionMirroringStartHandler != nil)
        let session = try Self.session(store)
        let delegate = RemoteDelegate()
        session.delegate = delegate
        session.startActivity(with: Date())
        session.end()
        await session.delegateCallsDelivered()
        #expect(calls.count == 0)
        #expect(delegate.states == [.running, .stopped, .ended] && delegate.remoteCalls == 0)
        store.workoutSessionMirroringStartHandler = nil
        #expect(store.workoutSessionMirroringStartHandler == nil)
    }
}

private final class Calls: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0
    func record() { lock.withLock { calls += 1 } }
    var count: Int { lock.withLock { calls } }
}

/// A delegate written for a mirrored session: Apple's two remote-session methods compile as optional.
private final class RemoteDelegate: NSObject, HKWorkoutSessionDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [HKWorkoutSessionState] = []
    private var remote = 0
    var states: [HKWorkoutSessionState] { lock.withLock { seen } }
    var remoteCalls: Int { lock.withLock { remote } }

    func workoutSession(_ workoutSession: HKWorkoutSession, didChangeTo toState: HKWorkoutSessionState,
                        from fromState: HKWorkoutSessionState, date: Date) {
        lock.withLock { seen.append(toState) }
    }

    func workoutSession(_ workoutSession: HKWorkoutSession, didFailWithError error: any Error) {}

    func workoutSession(_ workoutSession: HKWorkoutSession, didReceiveDataFromRemoteWorkoutSession data: [Data]) {
        lock.withLock { remote += 1 }
    }

    func workoutSession(_ workoutSession: HKWorkoutSession, didDisconnectFromRemoteDeviceWithError error: (any Error)?) {
        lock.withLock { remote += 1 }
    }
}
