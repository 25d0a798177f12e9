@testable import HealthBroker
import HealthWire
import Testing

/// The observer query's bookkeeping of updates and acknowledgements on its own.
///
/// Apple's rule it implements: the update handler is called for every matching change (HKObserverQuery,
/// developer.apple.com/documentation/healthkit/hkobserverquery: "updates your app when the HealthKit
/// store saves or deletes a matching sample"); the completion handler only "tells HealthKit that you
/// have successfully received the background data" (developer.apple.com/documentation/healthkit/
/// hkobserverquerycompletionhandler). So `handled` alone releases the next update, and `completed`
/// alone tells background delivery how far the app got.
@Suite(.timeLimit(.minutes(10))) struct ObserverDeliveryLedgerTests {
    typealias Step = ObserverAcknowledgement.Step

    /// Each step of the current update, on its own: the next update is released by exactly the
    /// steps that say the handler ran, and background delivery is told by exactly those that
    /// say the completion handler was called.
    @Test(arguments: Step.allCases)
    func eachStepReleasesAndReportsWhatItSays(_ step: Step) {
        var ledger = ObserverDeliveryLedger()
        let first = ledger.send(through: 10)
        let effect = ledger.acknowledge(first, step)
        #expect(effect.releasesNext == step.handled)
        #expect(effect.completedThrough == (step.completed ? 10 : nil))
        #expect(ledger.awaitingHandled == !step.handled)
    }

    /// An app that never calls a completion handler still paces nothing but its own handler:
    /// every update is released by `handled`, and background delivery hears nothing.
    @Test func updatesFlowWhileCompletionIsWithheld() {
        var ledger = ObserverDeliveryLedger()
        for through in Int64(1)...200 {
            let number = ledger.send(through: through)
            #expect(ledger.acknowledge(number, .handled) == .init(releasesNext: true, completedThrough: nil))
        }
        #expect(ledger.delivery == 200)
    }

    /// Completing a later update covers the earlier ones: completing one of those afterwards
    /// reports nothing and never moves background delivery back.
    @Test func aLaterCompletionCoversEarlierUpdates() {
        var ledger = ObserverDeliveryLedger()
        let numbers = (Int64(1)...4).map { through in
            let number = ledger.send(through: through * 10)
            _ = ledger.acknowledge(number, .handled)
            return number
        }
        #expect(ledger.acknowledge(numbers[2], .completed).completedThrough == 30)
        #expect(ledger.acknowledge(numbers[0], .completed).completedThrough == nil)
        #expect(ledger.acknowledge(numbers[2], .completed).completedThrough == nil, "a repeated completion reports nothing")
        #expect(ledger.acknowledge(numbers[3], .completed).completedThrough == 40)
    }

    /// Acknowledgements of updates never sent, or of an earlier update for the handled step,
    /// change nothing.
    @Test(arguments: Step.allCases)
    func anAcknowledgementOfAnUpdateNotSentChangesNothing(_ step: Step) {
        var ledger = ObserverDeliveryLedger()
        let first = ledger.send(through: 5)
        for number in [0, first + 1, UInt64.max] {
            #expect(ledger.acknowledge(number, step) == .init(), "update \(number)")
        }
        #expect(ledger.awaitingHandled)
        _ = ledger.acknowledge(first, .handled)
        let second = ledger.send(through: 6)
        #expect(ledger.acknowledge(first, .handled) == .init(), "handling an older update releases nothing")
        #expect(ledger.awaitingHandled)
        _ = second
    }

    /// An app that never completes costs a bounded table: the oldest uncompleted updates are
    /// forgotten, and completing one of them changes nothing, while a remembered one still counts.
    @Test func uncompletedUpdatesAreBounded() {
        var ledger = ObserverDeliveryLedger()
        let count = ObserverDeliveryLedger.remembered * 3
        for through in 1...count {
            _ = ledger.acknowledge(ledger.send(through: Int64(through)), .handled)
        }
        #expect(ledger.acknowledge(1, .completed) == .init(), "forgotten")
        let oldestKept = UInt64(count - ObserverDeliveryLedger.remembered + 1)
        #expect(ledger.acknowledge(oldestKept - 1, .completed) == .init(), "forgotten")
        #expect(ledger.acknowledge(oldestKept, .completed).completedThrough == Int64(oldestKept))
    }
}
