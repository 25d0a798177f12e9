public import HealthModel

/// Journaled calls the store refused at the merge, counted per app and reason. The app was
/// answered while the store was locked ("saved"); at the merge a save, deletion or association
/// that breaks a rule only the store can check (the routes-per-workout cap, a workout or sample
/// that is not the app's) changes nothing (`PendingEffect.apply`). This count is how the user
/// learns of it: healthd's log and the unlock's answer to `healthctl unlock` carry it — the admin
/// socket's, never an app's.
///
/// Bounded: at most `maxListed` (app, reason) pairs are kept apart; refusals of further pairs
/// are counted together in `more`, so a journal of many distinct refusals costs a fixed size.
public struct MergeRefusals: Sendable, Equatable {
    /// One (app, reason) pair and its count; the reason is cut to `maxReasonLength` characters.
    public typealias Entry = MergeRefusal

    /// Pairs kept apart, in the order first refused.
    public private(set) var entries: [Entry] = []
    /// Refusals of pairs beyond the first `maxListed`.
    public private(set) var more = 0

    public static let maxListed = 64
    public static let maxReasonLength = 300

    public init() {}

    public init(entries: [Entry], more: Int) {
        self.entries = entries
        self.more = more
    }

    public var total: Int { entries.reduce(more) { $0 + $1.count } }
    public var isEmpty: Bool { total == 0 }

    mutating func add(appID: String, _ error: HKError) {
        add(Entry(appID: appID, reason: String(error.message.prefix(Self.maxReasonLength)), count: 1))
    }

    mutating func add(_ entry: Entry) {
        if let index = entries.firstIndex(where: { $0.appID == entry.appID && $0.reason == entry.reason }) {
            entries[index].count += entry.count
        } else if entries.count < Self.maxListed {
            entries.append(entry)
        } else {
            more += entry.count
        }
    }

    mutating func formUnion(_ other: MergeRefusals) {
        for entry in other.entries { add(entry) }
        more += other.more
    }
}
