public import Foundation

extension NSSortDescriptor {
    /// HealthKit's `NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)`.
    ///
    /// swift-corelibs-foundation marks `init(key:ascending:)` unavailable (it has no key-value
    /// coding), so without this ported queries would not compile. The two HealthKit sort keys
    /// become key paths on `HKSample`; any other key becomes a marker that the query rejects
    /// with `errorInvalidArgument` when it runs (the broker sorts by start or end date only).
    public convenience init(key: String, ascending: Bool) {
        switch key {
        case HKSampleSortIdentifierStartDate: self.init(keyPath: \HKSample.startDate, ascending: ascending)
        case HKSampleSortIdentifierEndDate: self.init(keyPath: \HKSample.endDate, ascending: ascending)
        default: self.init(keyPath: \HKSample.unsupportedSortKey, ascending: ascending)
        }
    }
}

extension HKSample {
    /// The key path an unsupported sort key maps to; never read.
    var unsupportedSortKey: Int { 0 }
}

extension SampleSort {
    /// Key paths the broker can sort by, for `NSSortDescriptor`s (whose root is erased).
    /// `\HKQuantitySample.startDate` is a different key path from `\HKSample.startDate`, so each
    /// sample class is listed. (Computed: key paths are not marked Sendable, so a stored static
    /// table would not compile in Swift 6 mode.)
    private static var sortableKeyPaths: [AnyKeyPath: Key] {[
        \HKSample.startDate: .startDate, \HKSample.endDate: .endDate,
        \HKQuantitySample.startDate: .startDate, \HKQuantitySample.endDate: .endDate,
        \HKCategorySample.startDate: .startDate, \HKCategorySample.endDate: .endDate,
        \HKCorrelation.startDate: .startDate, \HKCorrelation.endDate: .endDate,
        \HKWorkout.startDate: .startDate, \HKWorkout.endDate: .endDate,
        \HKSeriesSample.startDate: .startDate, \HKSeriesSample.endDate: .endDate,
        \HKWorkoutRoute.startDate: .startDate, \HKWorkoutRoute.endDate: .endDate,
    ]}

    /// The broker-side sort for a sample query's sort descriptor.
    init(translating descriptor: NSSortDescriptor) throws(HKError) {
        try self.init(keyPath: descriptor.keyPath, ascending: descriptor.ascending)
    }

    /// The broker-side sort for a key path on a sample class (nil: a descriptor with a
    /// comparator only, which cannot be sent).
    init(keyPath: AnyKeyPath?, ascending: Bool) throws(HKError) {
        try self.init(keyPath: keyPath, extra: [:], ascending: ascending)
    }

    /// The broker-side sort for a `SortDescriptor<Root>` of a typed descriptor: `\Root.startDate`
    /// and `\Root.endDate` of whatever sample class the descriptor queries (so a class missing
    /// from the table above, such as a future one, still sorts).
    init<Root: HKSample>(keyPath: AnyKeyPath?, root: Root.Type, ascending: Bool) throws(HKError) {
        try self.init(keyPath: keyPath, extra: [\Root.startDate: .startDate, \Root.endDate: .endDate], ascending: ascending)
    }

    private init(keyPath: AnyKeyPath?, extra: [AnyKeyPath: Key], ascending: Bool) throws(HKError) {
        guard let keyPath, let key = extra[keyPath] ?? Self.sortableKeyPaths[keyPath] else {
            throw HKError(.errorInvalidArgument,
                          "sample queries sort only by start or end date (HKSampleSortIdentifierStartDate, "
                          + "HKSampleSortIdentifierEndDate, or the startDate / endDate key paths)")
        }
        self.init(key, ascending: ascending)
    }
}
