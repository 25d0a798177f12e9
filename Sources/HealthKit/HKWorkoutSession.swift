public import Foundation
import Synchronization

/// A workout being recorded, as HealthKit's `HKWorkoutSession`: a state machine (see
/// `WorkoutSessionTransitions`) that tells its delegate about each change, generates pause and
/// resume events, and drives its live builder (`associatedWorkoutBuilder()`).
///
/// On Linux there is no watch and no sensor: the session is the app's own record of the
/// workout, and the builder collects what other apps or a sensor bridge save meanwhile. A
/// session does not keep the app running and does not stop other apps' sessions.
public final class HKWorkoutSession: NSObject, @unchecked Sendable {
    // @unchecked: mutable state is behind `state` (a Mutex); the rest is immutable.
    public let workoutConfiguration: HKWorkoutConfiguration
    let healthStore: HKHealthStore

    private struct State {
        var state: HKWorkoutSessionState = .notStarted
        var startDate: Date?
        var endDate: Date?
        var builder: HKLiveWorkoutBuilder?
    }

    private let current = Mutex(State())
    private let delivery = DelegateDelivery<any HKWorkoutSessionDelegate>(label: "HKWorkoutSession.delegate")

    /// Throws `errorInvalidArgument` for a configuration HealthKit refuses: pool swimming
    /// without a lap length, a lap length that is not a length.
    public init(healthStore: HKHealthStore, configuration workoutConfiguration: HKWorkoutConfiguration) throws {
        try Self.check(workoutConfiguration)
        self.healthStore = healthStore
        self.workoutConfiguration = workoutConfiguration.snapshot()
        super.init()
    }

    public weak var delegate: (any HKWorkoutSessionDelegate)? {
        get { delivery.delegate }
        set { delivery.delegate = newValue }
    }

    public var state: HKWorkoutSessionState { current.withLock { $0.state } }
    /// When `startActivity(with:)` started the session.
    public var startDate: Date? { current.withLock { $0.startDate } }
    /// When the session ended.
    public var endDate: Date? { current.withLock { $0.endDate } }

    /// The activity in progress: the builder's current one, or the whole workout as one.
    public var currentActivity: HKWorkoutActivity {
        if let activity = current.withLock({ $0.builder })?.currentWorkoutActivity { return activity }
        return HKWorkoutActivity(workoutConfiguration: workoutConfiguration, start: startDate ?? Date(), end: endDate,
                                 metadata: nil)
    }

    /// The session's live builder, made on first call; the same one after.
    public func associatedWorkoutBuilder() -> HKLiveWorkoutBuilder {
        current.withLock { state in
            if let builder = state.builder { return builder }
            let builder = HKLiveWorkoutBuilder(healthStore: healthStore, configuration: workoutConfiguration, device: nil)
            builder.attach(to: self)
            state.builder = builder
            return builder
        }
    }

    public func prepare() { apply(.prepare, at: Date()) }

    /// Starts the session at `date` (now when nil).
    public func startActivity(with date: Date?) { apply(.startActivity, at: date ?? Date()) }

    public func pause() { apply(.pause, at: Date()) }

    public func resume() { apply(.resume, at: Date()) }

    /// Stops the activity at `date` (now when nil); `end()` then ends the session.
    public func stopActivity(with date: Date?) { apply(.stopActivity, at: date ?? Date()) }

    public func end() { apply(.end, at: Date()) }

    /// Begins a new activity of a multi-activity workout (the builder records it).
    public func beginNewActivity(configuration workoutConfiguration: HKWorkoutConfiguration, date: Date, metadata: [String: Any]?) {
        guard [.running, .paused].contains(state) else {
            return fail(HKError(.errorInvalidArgument, "cannot begin a new activity in a workout session that is \(state)"))
        }
        let configuration = workoutConfiguration.snapshot()
        let activity = HKWorkoutActivity(workoutConfiguration: configuration, start: date, end: nil, metadata: metadata)
        if let builder = current.withLock({ $0.builder }) {
            do {
                try builder.beginActivity(activity)
            } catch {
                return fail(error)
            }
        }
        delivery.deliver { $0.workoutSession(self, didBeginActivityWith: configuration, date: date) }
    }

    /// Ends the activity in progress at `date`.
    public func endCurrentActivity(on date: Date) {
        guard let builder = current.withLock({ $0.builder }), let activity = builder.currentWorkoutActivity else {
            return fail(HKError(.errorInvalidArgument, "the workout session has no activity in progress to end"))
        }
        do {
            try builder.endActivity(uuid: activity.uuid, at: date)
        } catch {
            return fail(error)
        }
        delivery.deliver { $0.workoutSession(self, didEndActivityWith: activity.workoutConfiguration, date: date) }
    }

    private func apply(_ command: WorkoutSessionTransitions.Command, at date: Date) {
        let (from, outcome, builder) = current.withLock { state in
            let outcome = WorkoutSessionTransitions.outcome(of: command, in: state.state)
            let from = state.state
            if case let .move(states) = outcome, let last = states.last {
                state.state = last
                if command == .startActivity { state.startDate = date }
                if last == .ended { state.endDate = date }
            }
            return (from, outcome, state.builder)
        }
        switch outcome {
        case .ignore:
            return
        case .illegal:
            fail(WorkoutSessionTransitions.error(command, in: from))
        case let .move(states):
            var previous = from
            for next in states {
                let left = previous
                delivery.deliver { $0.workoutSession(self, didChangeTo: next, from: left, date: date) }
                previous = next
            }
            generateEvent(for: command, at: date, builder: builder)
        }
    }

    /// Pause and resume produce workout events, as HealthKit's do; the live builder adds them
    /// when `shouldCollectWorkoutEvents` is set.
    private func generateEvent(for command: WorkoutSessionTransitions.Command, at date: Date, builder: HKLiveWorkoutBuilder?) {
        let type: HKWorkoutEventType
        switch command {
        case .pause: type = .pause
        case .resume: type = .resume
        default: return
        }
        let event = HKWorkoutEvent(type: type, dateInterval: DateInterval(start: date, duration: 0), metadata: nil)
        delivery.deliver { $0.workoutSession(self, didGenerate: event) }
        builder?.sessionGenerated(event)
    }

    private func fail(_ error: any Error) {
        delivery.deliver { $0.workoutSession(self, didFailWithError: error) }
    }

    /// Waits until the delegate has received every call made so far.
    func delegateCallsDelivered() async { await delivery.drain() }

    static func check(_ configuration: HKWorkoutConfiguration) throws(HKError) {
        if let lap = configuration.lapLength, !lap.is(compatibleWith: .meter()) {
            throw HKError(.errorInvalidArgument, "the workout configuration's lapLength must be a length, got \(lap.unit.unitString)")
        }
        if configuration.activityType == .swimming, configuration.swimmingLocationType == .pool, configuration.lapLength == nil {
            throw HKError(.errorInvalidArgument, "a pool swimming workout configuration needs a lapLength")
        }
    }
}
