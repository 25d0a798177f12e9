import Synchronization

/// What long-running queries did since healthd started, counted where it happens and reported by
/// `healthctl status`: the store visits they made in a query slot (`ScheduledStoreVisits.run`)
/// and the watches' computations (a statistics collection or the activity summaries computed
/// again). Tests compare the counts between a world where something the reader cannot see
/// happened and its twin where it did not (`HiddenEventWatchWorkEndToEndTests`), rather than time
/// the reader's calls.
enum LongRunningWork {
    static var slotVisits: UInt64 { visits.load(ordering: .relaxed) }
    static var computations: UInt64 { computed.load(ordering: .relaxed) }

    static func countSlotVisit() { visits.add(1, ordering: .relaxed) }
    static func countComputation() { computed.add(1, ordering: .relaxed) }

    private static let visits = Atomic<UInt64>(0)
    private static let computed = Atomic<UInt64>(0)
}
