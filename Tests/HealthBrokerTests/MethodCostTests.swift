@testable import HealthBroker
import HealthWire
import Testing

/// Every app method that answers with a stream holds the broker for as long as it sends, so it
/// must count against a budget (a large-query slot or the long-running limit): a stream counted
/// as cheap would let one app open as many as it likes (session 12 red team: `MethodTable.cost`
/// fell back to `.cheap` for any method it did not name).
@Suite(.timeLimit(.minutes(10))) struct MethodCostTests {
    @Test func everyStreamingAppMethodCountsAgainstABudget() {
        for (method, handler) in MethodTable.app {
            guard case .stream = handler else { continue }
            #expect(MethodTable.cost(of: method, payload: []) != .cheap, "\(method) streams but is counted as cheap")
        }
    }

    @Test func everyAppMethodIsServedOnTheAppSocket() {
        // The cost switch names every `HealthStoreMethod`; this checks the other direction: each
        // of them is in the app table, so no decided cost belongs to a method nobody serves.
        for method in HealthStoreMethod.allCases {
            #expect(MethodTable.app[method.rawValue] != nil, "\(method.rawValue) is not served")
        }
    }
}
