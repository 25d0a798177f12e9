public import Foundation

/// HealthKit's `HKWorkoutSessionType` (iOS 17, watchOS 10): whether a session records the workout
/// (`primary`, on the watch) or mirrors one recording on the paired device (`mirrored`, on the
/// iPhone). Raw values are Apple's (`HKWorkoutSessionTypePrimary = 0`, `…Mirrored = 1`).
public enum HKWorkoutSessionType: Int, Sendable, Hashable {
    case primary = 0
    case mirrored = 1
}

/// Session mirroring (iOS 17, watchOS 10): a watch app's session is mirrored to the iPhone app,
/// which receives it through `HKHealthStore.workoutSessionMirroringStartHandler`, and the two
/// exchange data with `sendToRemoteWorkoutSession(data:)`.
///
/// Linux has no paired device: every session is the one the app created (`type` is `.primary`),
/// the start handler is never called, and each call that needs the other device fails as
/// HealthKit fails when it has none — with `errorHealthDataUnavailable` naming why — so the app's
/// error path runs. Code written for both devices compiles unchanged. Nothing reaches healthd.
extension HKWorkoutSession {
    /// Always `.primary`: a mirrored session only arrives from a paired device.
    public var type: HKWorkoutSessionType { .primary }

    /// Apple: sends `data` to the remote (mirrored or primary) session; the other side's delegate
    /// gets `workoutSession(_:didReceiveDataFromRemoteWorkoutSession:)`. There is none here.
    public func sendToRemoteWorkoutSession(data: Data) async throws {
        throw Self.noPairedDevice("sendToRemoteWorkoutSession(data:)")
    }

    @preconcurrency
    public func sendToRemoteWorkoutSession(data: Data, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.sendToRemoteWorkoutSession(data: data) }
    }

    /// watchOS: mirrors this session to the companion iPhone app. No companion here.
    public func startMirroringToCompanionDevice() async throws {
        throw Self.noPairedDevice("startMirroringToCompanionDevice()")
    }

    @preconcurrency
    public func startMirroringToCompanionDevice(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.startMirroringToCompanionDevice() }
    }

    /// watchOS: stops mirroring. Fails as starting does: there was nothing to stop.
    public func stopMirroringToCompanionDevice() async throws {
        throw Self.noPairedDevice("stopMirroringToCompanionDevice()")
    }

    @preconcurrency
    public func stopMirroringToCompanionDevice(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.stopMirroringToCompanionDevice() }
    }

    private static func noPairedDevice(_ call: String) -> HKError {
        HKError(.errorHealthDataUnavailable,
                "\(call): there is no paired device on Linux to mirror a workout session to or from; "
                + "the session records on this device only")
    }
}
