public import Foundation

/// HealthKit's `HKWorkoutSessionDelegate`. Called on a background queue, in order, after the
/// session's state has changed. The activity and remote-session methods are optional in HealthKit;
/// here they have empty default implementations.
public protocol HKWorkoutSessionDelegate: NSObjectProtocol {
    func workoutSession(_ workoutSession: HKWorkoutSession, didChangeTo toState: HKWorkoutSessionState,
                        from fromState: HKWorkoutSessionState, date: Date)
    func workoutSession(_ workoutSession: HKWorkoutSession, didFailWithError error: any Error)
    func workoutSession(_ workoutSession: HKWorkoutSession, didGenerate event: HKWorkoutEvent)
    func workoutSession(_ workoutSession: HKWorkoutSession, didBeginActivityWith workoutConfiguration: HKWorkoutConfiguration,
                        date: Date)
    func workoutSession(_ workoutSession: HKWorkoutSession, didEndActivityWith workoutConfiguration: HKWorkoutConfiguration,
                        date: Date)
    /// iOS 17: data the remote (mirrored or primary) session sent. Never called here: Linux has
    /// no paired device (HKWorkoutSession+Mirroring).
    func workoutSession(_ workoutSession: HKWorkoutSession, didReceiveDataFromRemoteWorkoutSession data: [Data])
    /// iOS 17: the mirrored session's link to the other device ended. Never called here.
    func workoutSession(_ workoutSession: HKWorkoutSession, didDisconnectFromRemoteDeviceWithError error: (any Error)?)
}

extension HKWorkoutSessionDelegate {
    public func workoutSession(_ workoutSession: HKWorkoutSession, didGenerate event: HKWorkoutEvent) {}
    public func workoutSession(_ workoutSession: HKWorkoutSession, didBeginActivityWith workoutConfiguration: HKWorkoutConfiguration,
                               date: Date) {}
    public func workoutSession(_ workoutSession: HKWorkoutSession, didEndActivityWith workoutConfiguration: HKWorkoutConfiguration,
                               date: Date) {}
    public func workoutSession(_ workoutSession: HKWorkoutSession, didReceiveDataFromRemoteWorkoutSession data: [Data]) {}
    public func workoutSession(_ workoutSession: HKWorkoutSession, didDisconnectFromRemoteDeviceWithError error: (any Error)?) {}
}

/// HealthKit's `HKLiveWorkoutBuilderDelegate`. Called on a background queue, in order.
public protocol HKLiveWorkoutBuilderDelegate: NSObjectProtocol {
    func workoutBuilder(_ workoutBuilder: HKLiveWorkoutBuilder, didCollectDataOf collectedTypes: Set<HKSampleType>)
    func workoutBuilderDidCollectEvent(_ workoutBuilder: HKLiveWorkoutBuilder)
    func workoutBuilder(_ workoutBuilder: HKLiveWorkoutBuilder, didBegin workoutActivity: HKWorkoutActivity)
    func workoutBuilder(_ workoutBuilder: HKLiveWorkoutBuilder, didEnd workoutActivity: HKWorkoutActivity)
}

extension HKLiveWorkoutBuilderDelegate {
    public func workoutBuilder(_ workoutBuilder: HKLiveWorkoutBuilder, didBegin workoutActivity: HKWorkoutActivity) {}
    public func workoutBuilder(_ workoutBuilder: HKLiveWorkoutBuilder, didEnd workoutActivity: HKWorkoutActivity) {}
}

/// Delivers delegate calls on one serial queue per session or builder, so they arrive in the
/// order the changes happened. The weak reference is the caller's delegate, which HealthKit
/// holds weakly too; the box is `@unchecked Sendable` because delegates are app classes the
/// compiler cannot check, and HealthKit calls them from its own queue just the same.
final class DelegateDelivery<Delegate>: @unchecked Sendable {
    private let queue: DispatchQueue
    private let lock = NSLock()
    /// `AnyObject` because a protocol existential cannot be a weak generic parameter; the
    /// delegate protocols all refine NSObjectProtocol, so every delegate is a class.
    private weak var stored: AnyObject?

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    var delegate: Delegate? {
        get { lock.withLock { stored as? Delegate } }
        set { lock.withLock { stored = newValue.map { $0 as AnyObject } } }
    }

    func deliver(_ call: @escaping (Delegate) -> Void) {
        guard let delegate else { return }
        let box = UncheckedBox(value: delegate)
        let callBox = UncheckedBox(value: call)
        queue.async { callBox.value(box.value) }
    }

    /// Waits until every call queued so far has run (tests and `finishWorkout` ordering).
    func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }
}

struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
}
