import HealthModel
import Synchronization

/// Keeps a flood of refusals from growing the access log without bound: the first refusal of a
/// kind (same actor, same detail) in an interval is logged at once; the ones after it in that
/// interval are only counted, and logged as one entry "… (×N more in <interval>)" when the
/// interval is over — by the next refusal of that kind, or by `BrokerMaintenance`'s periodic
/// `expired()` sweep. The table is bounded too: past `maxKinds` kinds at once, further kinds are
/// counted under one shared overflow kind.
final class RefusalLogThrottle: Sendable {
    /// One entry to write.
    struct Entry: Sendable {
        let actor: String
        let appID: String?
        let detail: String
        let types: [String]
    }

    private struct Window {
        let started: ContinuousClock.Instant
        var suppressed: Int
        let actor: String
        let appID: String?
        let detail: String
    }

    private let interval: Duration
    private let maxKinds: Int
    private let clock = ContinuousClock()
    private let windows = Mutex([String: Window]())

    init(interval: Duration, maxKinds: Int = 1024) {
        self.interval = interval
        self.maxKinds = maxKinds
    }

    /// What to log for one refusal now: its own entry, plus the count of its kind's previous
    /// interval if that ended; empty while its kind is being counted.
    func admit(actor: String, appID: String?, detail: String, types: [String]) -> [Entry] {
        let now = clock.now
        return windows.withLock { windows in
            var key = "\(actor)\u{0}\(detail)"
            var detail = detail
            if windows[key] == nil, windows.count >= maxKinds {
                key = "\u{0}overflow"
                detail = "refusals of other kinds"
            }
            var entries: [Entry] = []
            if let window = windows[key] {
                if now - window.started < interval {
                    windows[key]?.suppressed += 1
                    return []
                }
                if window.suppressed > 0 { entries.append(summary(of: window)) }
            }
            windows[key] = Window(started: now, suppressed: 0, actor: actor, appID: appID, detail: detail)
            entries.append(Entry(actor: actor, appID: appID, detail: detail, types: types))
            return entries
        }
    }

    /// Summaries of the intervals that are over, and forgets them.
    func expired() -> [Entry] {
        let now = clock.now
        return windows.withLock { windows in
            var entries: [Entry] = []
            for (key, window) in windows where now - window.started >= interval {
                if window.suppressed > 0 { entries.append(summary(of: window)) }
                windows[key] = nil
            }
            return entries
        }
    }

    /// Whether counted refusals still wait for their summary entry: a socket-activated healthd
    /// does not exit idle before writing them (`Broker.closeIfIdle`).
    var hasUncountedRefusals: Bool {
        windows.withLock { $0.values.contains { $0.suppressed > 0 } }
    }

    private func summary(of window: Window) -> Entry {
        Entry(actor: window.actor, appID: window.appID,
              detail: "\(window.detail) (×\(window.suppressed) more within \(interval.components.seconds) s)",
              types: [])
    }
}
