import Foundation

/// Wakes a long-running query when the next temporary grant expires. An expired grant is denied
/// from that instant, exactly like a revoked one (DESIGN.md §7.6), but nothing is written when
/// it happens, so no commit or grants-changed event would wake the query to re-read its scope.
///
/// Owned by one query's task: `arm` after every read with `AuthorizationEngine.nextGrantExpiry()`
/// (the next expiry of any app's grant: waking for another app's costs one check), `cancel` when
/// the query ends.
struct GrantExpiryAlarm {
    private let wake: @Sendable () -> Void
    private var pending: Task<Void, Never>?

    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    /// Replaces any earlier alarm with one at `date` (none for nil). Woken a moment after the
    /// instant, so the grant reads as expired; woken early by a coarse clock, the query finds
    /// the same expiry still ahead and arms again.
    mutating func arm(at date: Date?) {
        pending?.cancel()
        pending = date.map { date in
            Task { [wake] in
                try? await Task.sleep(for: .seconds(max(0, date.timeIntervalSinceNow) + 0.001))
                if !Task.isCancelled { wake() }
            }
        }
    }

    func cancel() {
        pending?.cancel()
    }
}
