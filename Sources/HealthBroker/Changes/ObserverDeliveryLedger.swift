import HealthWire

/// What one observer query has sent and what its app has said of each update, as a pure state
/// machine (`ObserverQueryService` does the sending).
///
/// HealthKit calls an observer's update handler for every matching change and gives the
/// completion handler one meaning only: "calling this block tells HealthKit that you have
/// successfully received the background data" (developer.apple.com/documentation/healthkit/
/// hkobserverquerycompletionhandler). So the two answers are kept apart:
/// - *handled* (the update handler returned) paces the stream: at most one update is in flight
///   to the app's process, and changes meanwhile fold into the next update;
/// - *completed* (the app called the completion handler) tells background delivery which
///   changes reached the app. An app may complete updates late, out of order or never; a
///   completion covers the changes its update was decided through, never less than one
///   completed before.
struct ObserverDeliveryLedger {
    /// Updates sent but not completed that are remembered, oldest dropped first: an app that
    /// never completes costs a bounded table. Completing a forgotten update changes nothing
    /// (background delivery then launches the app for it, as for an update never completed).
    static let remembered = 64

    /// The number of the last update sent (1 is the one at start).
    private(set) var delivery: UInt64 = 0
    /// Whether the last update sent is still awaiting its handled acknowledgement.
    private(set) var awaitingHandled = false
    /// Updates not yet completed, oldest first, with the change number each was decided through.
    private var uncompleted: [(delivery: UInt64, through: Int64)] = []
    /// The furthest change number a completion has reported.
    private var completedThrough: Int64?

    /// Records an update decided through change number `through`; returns its number.
    mutating func send(through: Int64) -> UInt64 {
        delivery += 1
        awaitingHandled = true
        uncompleted.append((delivery, through))
        if uncompleted.count > Self.remembered { uncompleted.removeFirst(uncompleted.count - Self.remembered) }
        return delivery
    }

    /// What an acknowledgement changes.
    struct Effect: Equatable {
        /// The next update may be sent (the stream is no longer paused).
        var releasesNext = false
        /// Background delivery should learn the app has the changes through this number.
        var completedThrough: Int64?
    }

    /// The app acknowledged update `number` with `step`. Acknowledgements of updates never sent,
    /// repeated, or of forgotten ones change nothing.
    mutating func acknowledge(_ number: UInt64, _ step: ObserverAcknowledgement.Step) -> Effect {
        var effect = Effect()
        if step.handled, awaitingHandled, number == delivery {
            awaitingHandled = false
            effect.releasesNext = true
        }
        if step.completed, let index = uncompleted.firstIndex(where: { $0.delivery == number }) {
            let through = uncompleted[index].through
            // This update's changes include every earlier update's: those are done too.
            uncompleted.removeFirst(index + 1)
            if completedThrough.map({ through > $0 }) ?? true {
                completedThrough = through
                effect.completedThrough = through
            }
        }
        return effect
    }
}
