@testable import HealthBroker
import Synchronization
import Testing

/// One wake-up check per app at a time (s20 availability review, finding 1): an app's checks wait
/// for each other in order, never for another app's.
@Suite(.timeLimit(.minutes(10))) struct CheckTurnsTests {
    @Test func anAppsChecksTakeTurnsAndAnotherAppsDoNotWait() async throws {
        let turns = CheckTurns()
        let order = RunOrder()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let first = Task {
            try await turns.run(app: "A") {
                order.append("A1 began")
                for await _ in gate {}
                order.append("A1 ended")
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        let second = Task { try await turns.run(app: "A") { order.append("A2") } }
        let third = Task { try await turns.run(app: "A") { order.append("A3") } }
        try await Task.sleep(for: .milliseconds(100))
        // Another app's check, and work for no app, run while A's first check holds A's turn.
        try await turns.run(app: "B") { order.append("B1") }
        try await turns.run(app: nil) { order.append("none") }
        #expect(order.names == ["A1 began", "B1", "none"])
        #expect(turns.checkingCount == 1)
        open.finish()
        try await first.value
        try await second.value
        try await third.value
        #expect(order.names == ["A1 began", "B1", "none", "A1 ended", "A2", "A3"])
        #expect(turns.checkingCount == 0)
    }

    @Test func aCancelledWaitLeavesTheQueue() async throws {
        let turns = CheckTurns()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let holder = Task { try await turns.run(app: "A") { for await _ in gate {} } }
        try await Task.sleep(for: .milliseconds(100))
        let waiter = Task { try await turns.run(app: "A") {} }
        try await Task.sleep(for: .milliseconds(100))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        open.finish()
        try await holder.value
        // The turn is free again.
        try await turns.run(app: "A") {}
        #expect(turns.checkingCount == 0)
    }
}
