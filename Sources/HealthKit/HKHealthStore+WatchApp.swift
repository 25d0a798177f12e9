import Foundation

extension HKHealthStore {
    /// `startWatchApp(with:completion:)` / `startWatchApp(toHandle:)`: on an iPhone, HealthKit
    /// launches the paired Apple Watch's app with the configuration and fails when it cannot.
    /// Linux has no paired watch, so the call compiles unchanged (real iPhone code calls it) and
    /// always fails — `errorInvalidArgument` for a configuration a session would refuse, else
    /// `errorHealthDataUnavailable` naming why — so the app's error path runs. Nothing reaches healthd.
    func brokerStartWatchApp(with workoutConfiguration: HKWorkoutConfiguration) throws(HKError) {
        try HKWorkoutSession.check(workoutConfiguration)
        throw HKError(.errorHealthDataUnavailable,
                      "startWatchApp: there is no paired Apple Watch on Linux to launch a workout app on; "
                      + "record the workout on this device with HKWorkoutSession instead")
    }
}
