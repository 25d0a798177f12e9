import HealthWire
import Synchronization

/// The completion handler of one observer update, and what the SDK tells healthd of it.
///
/// HealthKit keeps calling an observer's update handler whether or not earlier completion
/// handlers were called; the completion handler only "tells HealthKit that you have successfully
/// received the background data" (developer.apple.com/documentation/healthkit/
/// hkobserverquerycompletionhandler). So the SDK answers each update when the update handler
/// returns — `handled`, which lets healthd send the next — and separately when the app calls
/// the completion handler, from any thread and at any time: `completed`. Called before the
/// handler returned (the common case), the two go as one `handledAndCompleted`.
final class ObserverUpdateCompletion: Sendable {
    private enum State {
        case inHandler(called: Bool)
        case awaitingCall
        case called
    }

    private let state = Mutex(State.inHandler(called: false))
    /// Sends `completed` for a call that comes after the handler returned.
    private let sendCompleted: @Sendable () -> Void

    init(sendCompleted: @escaping @Sendable () -> Void) {
        self.sendCompleted = sendCompleted
    }

    /// The block the app's update handler receives. Only its first call counts.
    func call() {
        let send = state.withLock { state -> Bool in
            switch state {
            case .inHandler(called: false):
                state = .inHandler(called: true)
                return false
            case .awaitingCall:
                state = .called
                return true
            case .inHandler(called: true), .called:
                return false
            }
        }
        if send { sendCompleted() }
    }

    /// The update handler returned: what the SDK acknowledges now.
    func handlerReturned() -> ObserverAcknowledgement.Step {
        state.withLock { state in
            if case .inHandler(called: true) = state {
                state = .called
                return .handledAndCompleted
            }
            state = .awaitingCall
            return .handled
        }
    }
}
