public import Foundation
import Synchronization

/// Statistics per calendar interval, as HealthKit's `HKStatisticsCollectionQuery`: daily step
/// totals, hourly heart-rate averages. Intervals start at `anchorDate` plus whole multiples of
/// `intervalComponents` (minutes, hours, days, weeks, months or years), computed by the broker
/// with a Gregorian calendar in `timeZone` — so a daily interval at a DST change lasts 23 or
/// 25 hours. Cumulative samples that span intervals are split between them by time.
///
/// Set `initialResultsHandler` for the collection once. Set `statisticsUpdateHandler` too (before
/// `execute`) to keep the query running: after the initial results, it gets the whole updated
/// collection each time a change the app may read alters it, until `stop(_:)`. Permissions apply
/// at every update: after the user revokes read access, the next update holds only the app's
/// own samples.
public final class HKStatisticsCollectionQuery: HKQuery, @unchecked Sendable {
    public typealias ResultsHandler = @Sendable (HKStatisticsCollectionQuery, HKStatisticsCollection?, (any Error)?) -> Void
    public typealias UpdateHandler = @Sendable (HKStatisticsCollectionQuery, HKStatistics?, HKStatisticsCollection?, (any Error)?) -> Void

    public let quantityType: HKQuantityType
    public let options: HKStatisticsOptions
    public let anchorDate: Date
    public let intervalComponents: DateComponents
    /// The zone the calendar arithmetic happens in. An OpenHealthKit addition: HealthKit always
    /// uses the device's current calendar.
    public let timeZone: TimeZone

    private let handlers = Mutex<(initial: ResultsHandler?, update: UpdateHandler?)>((nil, nil))
    let spec: Result<StatisticsCollectionSpec, HKError>

    /// Called once with the collection (or the error). Set it before executing the query.
    /// A plain closure where Apple's is `@Sendable`, so Apple-style assignments compile (see `AppHandler`).
    public var initialResultsHandler: ((HKStatisticsCollectionQuery, HKStatisticsCollection?, (any Error)?) -> Void)? {
        get {
            guard let handler = handlers.withLock({ $0.initial }) else { return nil }
            return handler
        }
        set {
            guard let newValue else { return handlers.withLock { $0.initial = nil } }
            let box = AppHandler(function: newValue)
            let handler: ResultsHandler = { query, collection, error in box.function(query, collection, error) }
            handlers.withLock { $0.initial = handler }
        }
    }

    /// Called after the initial results each time the collection changes, with the statistics
    /// of the latest interval that changed (nil quantities when it lost its data) and the whole
    /// updated collection; with an error if the query fails later (never for `stop(_:)`). Set it
    /// before `execute` to make the query long-running; setting it later has no effect on a
    /// running query, as in HealthKit.
    /// A plain closure where Apple's is `@Sendable`, so Apple-style assignments compile (see `AppHandler`).
    public var statisticsUpdateHandler: ((HKStatisticsCollectionQuery, HKStatistics?, HKStatisticsCollection?, (any Error)?) -> Void)? {
        get {
            guard let handler = handlers.withLock({ $0.update }) else { return nil }
            return handler
        }
        set {
            guard let newValue else { return handlers.withLock { $0.update = nil } }
            let box = AppHandler(function: newValue)
            let handler: UpdateHandler = { query, statistics, collection, error in box.function(query, statistics, collection, error) }
            handlers.withLock { $0.update = handler }
        }
    }

    /// `options` defaults to none, as in HealthKit's Swift signature (each interval then carries
    /// only its dates).
    public init(quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?, options: HKStatisticsOptions = [],
                anchorDate: Date, intervalComponents: DateComponents, timeZone: TimeZone = .current) {
        self.quantityType = quantityType
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        self.timeZone = timeZone
        spec = Result { () throws(HKError) in
            let statistics = try HKStatisticsQuery.spec(type: quantityType, predicate: quantitySamplePredicate, options: options)
            let spec = StatisticsCollectionSpec(statistics: statistics, anchor: anchorDate,
                                                interval: try StatisticsInterval(intervalComponents),
                                                timeZoneIdentifier: timeZone.identifier)
            try spec.validate()
            return spec
        }
        super.init(objectType: quantityType, predicate: quantitySamplePredicate)
    }

    override func start(on connection: BrokerConnection) {
        let (initial, update) = handlers.withLock { $0 }
        let started = lifecycle.start { [self] in
            if let update {
                await runUpdating(on: connection, initial: initial, update: update)
                return
            }
            do throws(HKError) {
                let collection = try await connection.statisticsCollection(self)
                initial?(self, collection, nil)
            } catch {
                initial?(self, nil, error)
            }
        }
        if !started {
            let error = HKError(.errorInvalidArgument,
                                "this HKStatisticsCollectionQuery was already executed or stopped; create a new query to run it again")
            Task { [self] in
                if let initial { initial(self, nil, error) } else { update?(self, nil, nil, error) }
            }
        }
    }

    /// The long-running form: the first delivery goes to `initial`, later ones to `update`. An
    /// error before the first delivery goes to `initial` (to `update` when there is none); one
    /// after it to `update`, except the quiet end of a stopped query.
    private func runUpdating(on connection: BrokerConnection, initial: ResultsHandler?, update: @escaping UpdateHandler) async {
        let delivered = Mutex(false)
        do throws(HKError) {
            let spec = try spec.get()
            try await connection.statisticsCollectionUpdates(spec) { delivery in
                let collection = collection(of: delivery.intervals, interval: spec.interval)
                let first = delivered.withLock { delivered in
                    defer { delivered = true }
                    return !delivered
                }
                if first {
                    initial?(self, collection, nil)
                } else {
                    let latest = delivery.updated.last.map {
                        HKStatistics(type: quantityType, result: $0, separateBySource: options.contains(.separateBySource))
                    }
                    update(self, latest, collection, nil)
                }
            }
        } catch {
            if !delivered.withLock({ $0 }), let initial {
                initial(self, nil, error)
            } else if error.code != .errorUserCanceled {
                update(self, nil, nil, error)
            }
        }
    }

    /// The app's view of the intervals with data of this query's collection.
    func collection(of intervals: [StatisticsResult], interval: StatisticsInterval) -> HKStatisticsCollection {
        HKStatisticsCollection(type: quantityType, results: intervals, anchor: anchorDate, interval: interval,
                               timeZone: timeZone, separateBySource: options.contains(.separateBySource))
    }
}

extension BrokerConnection {
    /// Runs a collection query and wraps its results for the app.
    func statisticsCollection(_ query: HKStatisticsCollectionQuery) async throws(HKError) -> HKStatisticsCollection {
        let spec = try query.spec.get()
        return query.collection(of: try await statisticsCollection(spec), interval: spec.interval)
    }
}

extension StatisticsInterval {
    /// HealthKit's `intervalComponents`: minute, hour, day, weekOfYear (or weekOfMonth), month
    /// and year (as 12 months). Anything else — seconds, eras, quarters — is refused by name.
    init(_ components: DateComponents) throws(HKError) {
        let unsupported: [(Int?, String)] = [(components.second, "second"), (components.nanosecond, "nanosecond"),
                                             (components.era, "era"), (components.quarter, "quarter"),
                                             (components.weekday, "weekday"), (components.weekdayOrdinal, "weekdayOrdinal"),
                                             (components.yearForWeekOfYear, "yearForWeekOfYear")]
        if let name = unsupported.first(where: { ($0.0 ?? 0) != 0 })?.1 {
            throw HKError(.errorInvalidArgument, "intervalComponents may use minute, hour, day, weekOfYear, month and year; not \(name)")
        }
        self.init(minutes: components.minute ?? 0, hours: components.hour ?? 0, days: components.day ?? 0,
                  weeks: (components.weekOfYear ?? 0) + (components.weekOfMonth ?? 0),
                  months: (components.month ?? 0) + min(max(components.year ?? 0, -1_000_000), 1_000_000) * 12)
    }
}
