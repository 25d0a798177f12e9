public import Foundation

/// HealthKit's async statistics query: `try await descriptor.result(for: store)`, nil when no
/// sample matches.
public struct HKStatisticsQueryDescriptor: Sendable {
    public let predicate: HKSamplePredicate<HKQuantitySample>
    public let options: HKStatisticsOptions

    public init(predicate: HKSamplePredicate<HKQuantitySample>, options: HKStatisticsOptions) {
        self.predicate = predicate
        self.options = options
    }

    public func result(for healthStore: HKHealthStore) async throws -> HKStatistics? {
        guard let type = predicate.sampleType as? HKQuantityType else {
            throw HKError(.errorInvalidArgument, "statistics need a quantity type; \(predicate.sampleType.identifier) is not one")
        }
        let spec = try HKStatisticsQuery.spec(type: type, predicate: predicate.nsPredicate, options: options)
        let result: StatisticsResult
        do {
            result = try await healthStore.connection.statistics(spec)
        } catch {
            if error.code == .errorNoData { return nil }
            throw error
        }
        return HKStatistics(type: type, result: result, separateBySource: options.contains(.separateBySource))
    }
}

/// HealthKit's async statistics collection query: `try await descriptor.result(for: store)` for
/// the collection now, or `for try await result in descriptor.results(for: store)` for it and
/// then the updated collection after every change the app may read, until the loop ends.
public struct HKStatisticsCollectionQueryDescriptor: Sendable {
    public let predicate: HKSamplePredicate<HKQuantitySample>
    public let options: HKStatisticsOptions
    public let anchorDate: Date
    public let intervalComponents: DateComponents
    /// See `HKStatisticsCollectionQuery.timeZone`.
    public let timeZone: TimeZone

    public init(predicate: HKSamplePredicate<HKQuantitySample>, options: HKStatisticsOptions, anchorDate: Date,
                intervalComponents: DateComponents, timeZone: TimeZone = .current) {
        self.predicate = predicate
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        self.timeZone = timeZone
    }

    public func result(for healthStore: HKHealthStore) async throws -> HKStatisticsCollection {
        try await healthStore.connection.statisticsCollection(try makeQuery())
    }

    /// The query this descriptor describes; a predicate of a type that is not a quantity type
    /// cannot make one.
    func makeQuery() throws(HKError) -> HKStatisticsCollectionQuery {
        guard let type = predicate.sampleType as? HKQuantityType else {
            throw HKError(.errorInvalidArgument, "statistics need a quantity type; \(predicate.sampleType.identifier) is not one")
        }
        return HKStatisticsCollectionQuery(quantityType: type, quantitySamplePredicate: predicate.nsPredicate,
                                           options: options, anchorDate: anchorDate,
                                           intervalComponents: intervalComponents, timeZone: timeZone)
    }
}
