import HealthModel
import HealthWire
import Synchronization

/// The running observer queries, so an acknowledgement (a separate unary call) reaches the
/// query it is for. An observer's id is random and only ever given to the app that started it,
/// over the connection that runs it. An acknowledgement is bound to both: one naming an
/// observer of another app, or of the same app on another connection, is refused exactly like
/// one naming no observer at all (same code, same message), so an id learnt any other way
/// neither releases a held update nor confirms that the observer exists.
final class ObserverRegistry: Sendable {
    /// What reaches a running observer query.
    enum Signal: Sendable {
        /// Something in its type may have changed.
        case wake
        /// The app answered update `delivery` (`ObserverDeliveryLedger` decides what it changes).
        case acknowledged(delivery: UInt64, step: ObserverAcknowledgement.Step)
    }

    private struct Entry {
        let appID: String
        /// `CallerConnection` of the call that runs the query; nil matches nothing.
        let connection: UInt64?
        let typeIdentifier: String
        let signals: AsyncStream<Signal>.Continuation
    }

    private let entries = Mutex<[UInt64: Entry]>([:])

    /// Registers an observer of `appID`; returns its id and the stream of its signals. A full
    /// buffer drops the oldest signal: wake-ups are interchangeable, and only an app flooding its
    /// own observer with acknowledgements could lose one (then its own updates pause, or
    /// background delivery launches it for an update it completed).
    func register(appID: String, typeIdentifier: String, connection: UInt64?)
        -> (id: UInt64, signals: AsyncStream<Signal>, continuation: AsyncStream<Signal>.Continuation) {
        let (signals, continuation) = AsyncStream<Signal>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = entries.withLock { entries in
            var id = UInt64.random(in: 1...UInt64.max)
            while entries[id] != nil { id = UInt64.random(in: 1...UInt64.max) }
            entries[id] = Entry(appID: appID, connection: connection, typeIdentifier: typeIdentifier, signals: continuation)
            return id
        }
        return (id, signals, continuation)
    }

    /// Whether `appID` runs an observer query of `typeIdentifier` now (background delivery
    /// launches an app only when none would receive the change).
    func isObserving(appID: String, typeIdentifier: String) -> Bool {
        entries.withLock { entries in
            entries.values.contains { $0.appID == appID && $0.typeIdentifier == typeIdentifier }
        }
    }

    func remove(_ id: UInt64) {
        entries.withLock { $0.removeValue(forKey: id) }?.signals.finish()
    }

    /// Passes an acknowledgement from `appID`, arriving on `connection`, to its observer `id`.
    func acknowledge(appID: String, connection: UInt64?, observerID id: UInt64, delivery: UInt64,
                     step: ObserverAcknowledgement.Step) throws(HKError) {
        let entry = entries.withLock { $0[id] }
        guard let entry, entry.appID == appID, let connection, entry.connection == connection else {
            // No id in the message: the refusal must read the same whichever check failed.
            throw HKError(.errorInvalidArgument, "no running observer query with that id on this connection; it may have been stopped")
        }
        entry.signals.yield(.acknowledged(delivery: delivery, step: step))
    }
}
