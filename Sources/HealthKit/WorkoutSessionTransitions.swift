/// The legal moves of an `HKWorkoutSession`, as a pure table so the rules are stated (and
/// tested) in one place, apart from delivery. Apple's states are notStarted → prepared →
/// running ⇄ paused → stopped → ended; `end()` from running or paused passes through stopped,
/// as HealthKit reports both changes.
///
/// Where HealthKit's documentation says a call does nothing — `pause()` "pauses the provided
/// session if it is currently running", resume likewise only a paused one — a call in the
/// other running state is ignored. Any other call in a state that does not allow it fails: the
/// session stays where it is and its delegate gets `workoutSession(_:didFailWithError:)`, as
/// HealthKit reports an invalid session operation.
enum WorkoutSessionTransitions {
    enum Command: String {
        case prepare, startActivity, pause, resume, stopActivity, end
    }

    enum Outcome: Equatable {
        /// The states to pass through, in order (two for `end()` from running or paused).
        case move([HKWorkoutSessionState])
        case ignore
        case illegal
    }

    static func outcome(of command: Command, in state: HKWorkoutSessionState) -> Outcome {
        switch (command, state) {
        case (.prepare, .notStarted):
            return .move([.prepared])
        case (.startActivity, .notStarted), (.startActivity, .prepared):
            return .move([.running])
        case (.pause, .running):
            return .move([.paused])
        case (.pause, .paused):
            return .ignore
        case (.resume, .paused):
            return .move([.running])
        case (.resume, .running):
            return .ignore
        case (.stopActivity, .running), (.stopActivity, .paused):
            return .move([.stopped])
        case (.end, .running), (.end, .paused):
            return .move([.stopped, .ended])
        case (.end, .prepared), (.end, .stopped):
            return .move([.ended])
        default:
            return .illegal
        }
    }

    /// The error a delegate gets for an illegal call.
    static func error(_ command: Command, in state: HKWorkoutSessionState) -> HKError {
        HKError(.errorInvalidArgument, "cannot call \(command.rawValue)() on a workout session that is \(state)")
    }
}
