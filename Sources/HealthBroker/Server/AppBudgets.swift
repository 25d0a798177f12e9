import HealthIPC
import HealthWire
import Synchronization

/// Per-app counters for the budgets that are simple counts (`BrokerLimits`): calls in flight
/// over all of an app's connections, and long-running queries held open. A claim either fits
/// and returns its release, or is refused with RESOURCE_EXHAUSTED naming the limit — before
/// any work for the call is queued.
final class AppBudgets: Sendable {
    enum Budget: Sendable, CaseIterable {
        case callsInFlight
        case longRunningQueries
    }

    private struct Key: Hashable {
        let app: String
        let budget: Budget
    }

    private let limits: BrokerLimits
    private let counts = Mutex([Key: Int]())

    init(limits: BrokerLimits) {
        self.limits = limits
    }

    /// Claims one unit of `budget` for `app`; the returned release gives it back (once).
    func claim(_ budget: Budget, app: String) throws(RPCStatus) -> @Sendable () -> Void {
        let key = Key(app: app, budget: budget)
        let limit = self.limit(budget)
        let fits = counts.withLock { counts in
            let current = counts[key, default: 0]
            guard current < limit else { return false }
            counts[key] = current + 1
            return true
        }
        guard fits else { throw BrokerLimits.exhausted(describe(budget, limit)) }
        let claim = Claim()
        return { [self] in
            guard claim.end() else { return }
            counts.withLock { counts in
                let left = counts[key, default: 1] - 1
                counts[key] = left > 0 ? left : nil
            }
        }
    }

    /// Makes a release idempotent: a call ended by both its CANCEL and its task returns its
    /// budget once.
    private final class Claim: Sendable {
        private let ended = Mutex(false)

        /// True the first time only.
        func end() -> Bool {
            ended.withLock { ended in
                defer { ended = true }
                return !ended
            }
        }
    }

    func inUse(_ budget: Budget, app: String) -> Int {
        counts.withLock { $0[Key(app: app, budget: budget), default: 0] }
    }

    private func limit(_ budget: Budget) -> Int {
        switch budget {
        case .callsInFlight: limits.callsInFlightPerApp
        case .longRunningQueries: limits.longRunningQueriesPerApp
        }
    }

    private func describe(_ budget: Budget, _ limit: Int) -> String {
        switch budget {
        case .callsInFlight: "at most \(limit) calls in flight per app"
        case .longRunningQueries: "at most \(limit) long-running queries per app"
        }
    }
}
