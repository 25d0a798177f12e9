extension HKHealthStore {
    /// Apple: if the app crashes during an active workout session, the next launch calls
    /// `recoverActiveWorkoutSession(completion:)` and "HealthKit then attempts to restore the
    /// previous workout session". Apple's async form returns `HKWorkoutSession?`: no session to
    /// recover is `nil` without an error (an Objective-C completion's nullable result would
    /// otherwise import as non-optional).
    ///
    /// Here a session is the app process's own state machine (HKWorkoutSession): nothing of it
    /// outlives the process, so there is never a session to recover and the answer is always
    /// `nil`. A recorder that must survive a crash saves what it has as it goes (samples are
    /// saved when collected; the workout is saved by `finishWorkout`).
    func brokerRecoverActiveWorkoutSession() async throws -> HKWorkoutSession? {
        nil
    }

    func brokerRecoverActiveWorkoutSession(completion: @escaping @Sendable (HKWorkoutSession?, (any Error)?) -> Void) {
        Task {
            do {
                completion(try await recoverActiveWorkoutSession(), nil)
            } catch {
                completion(nil, error)
            }
        }
    }
}
