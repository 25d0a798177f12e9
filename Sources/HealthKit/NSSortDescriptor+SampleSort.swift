public import Foundation

extension NSSortDescriptor {
    /// HealthKit's `NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)`.
    ///
    /// swift-corelibs-foundation marks `init(key:ascending:)` unavailable (it has no key-value
    /// coding), so without this ported queries would not compile. HealthKit's sort keys become
    /// key paths: the two sample keys on `HKSample`, the `HKWorkoutSortIdentifier…` keys on
    /// `HKWorkout`; any other key becomes a marker that the query rejects with
    /// `errorInvalidArgument` when it runs.
    public convenience init(key: String, ascending: Bool) {
        switch key {
        case HKSampleSortIdentifierStartDate: self.init(keyPath: \HKSample.startDate, ascending: ascending)
        case HKSampleSortIdentifierEndDate: self.init(keyPath: \HKSample.endDate, ascending: ascending)
        case HKWorkoutSortIdentifierDuration: self.init(keyPath: \HKWorkout.duration, ascending: ascending)
        case HKWorkoutSortIdentifierTotalDistance: self.init(keyPath: \HKWorkout.totalDistanceSortKey, ascending: ascending)
        case HKWorkoutSortIdentifierTotalEnergyBurned: self.init(keyPath: \HKWorkout.totalEnergyBurnedSortKey, ascending: ascending)
        case HKWorkoutSortIdentifierTotalSwimmingStrokeCount:
            self.init(keyPath: \HKWorkout.totalSwimmingStrokeCountSortKey, ascending: ascending)
        case HKWorkoutSortIdentifierTotalFlightsClimbed: self.init(keyPath: \HKWorkout.totalFlightsClimbedSortKey, ascending: ascending)
        default: self.init(keyPath: \HKSample.unsupportedSortKey, ascending: ascending)
        }
    }
}

extension HKSample {
    /// The key path an unsupported sort key maps to; never read.
    var unsupportedSortKey: Int { 0 }
}

extension HKWorkout {
    // The key paths the HKWorkoutSortIdentifierTotal… keys map to; never read (healthd sorts).
    // swift-corelibs-foundation's NSSortDescriptor(keyPath:) needs a Comparable value, which
    // the optional HKQuantity totals are not.
    var totalDistanceSortKey: Int { 0 }
    var totalEnergyBurnedSortKey: Int { 0 }
    var totalSwimmingStrokeCountSortKey: Int { 0 }
    var totalFlightsClimbedSortKey: Int { 0 }
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
        // HKWorkoutSortIdentifier…; `checkSort` refuses them on a query of another type.
        \HKWorkout.duration: .workout(.duration), \HKWorkout.totalDistanceSortKey: .workout(.distance),
        \HKWorkout.totalEnergyBurnedSortKey: .workout(.energyBurned),
        \HKWorkout.totalSwimmingStrokeCountSortKey: .workout(.swimmingStrokeCount),
        \HKWorkout.totalFlightsClimbedSortKey: .workout(.flightsClimbed),
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
                          + "HKSampleSortIdentifierEndDate, or the startDate / endDate key paths), and workout "
                          + "queries also by an HKWorkoutSortIdentifier… key")
        }
        self.init(key, ascending: ascending)
    }
}
