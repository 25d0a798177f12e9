public import Foundation
import Synchronization

/// Statistics per calendar interval, as HealthKit's `HKStatisticsCollectionQuery`: daily step
/// totals, hourly heart-rate averages. Intervals start at `anchorDate` plus whole multiples of
/// `intervalComponents` (minutes, hours, days, weeks, months or years), computed by the broker
/// with a Gregorian calendar in `timeZone` — so a daily interval at a DST change lasts 23 or
/// 25 hours. Cumulative samples that span intervals are split between them by time.
///
/// `statisticsUpdateHandler` (results that keep updating) is not available yet; set
/// `initialResultsHandler`, then execute.
public final class HKStatisticsCollectionQuery: HKQuery, @unchecked Sendable {
    public typealias ResultsHandler = @Sendable (HKStatisticsCollectionQuery, HKStatisticsCollection?, (any Error)?) -> Void

    public let quantityType: HKQuantityType
    public let options: HKStatisticsOptions
    public let anchorDate: Date
    public let intervalComponents: DateComponents
    /// The zone the calendar arithmetic happens in. An OpenHealthKit addition: HealthKit always
    /// uses the device's current calendar.
    public let timeZone: TimeZone

    private let handler = Mutex<ResultsHandler?>(nil)
    let spec: Result<StatisticsCollectionSpec, HKError>

    /// Called once with the collection (or the error). Set it before executing the query.
    public var initialResultsHandler: ResultsHandler? {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    public init(quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?, options: HKStatisticsOptions,
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
        let started = lifecycle.start { [self] in
            guard let handler = initialResultsHandler else { return }
            do throws(HKError) {
                handler(self, try await connection.statisticsCollection(self), nil)
            } catch {
                handler(self, nil, error)
            }
        }
        if !started, let handler = initialResultsHandler {
            Task { [self] in
                handler(self, nil, HKError(.errorInvalidArgument,
                                           "this HKStatisticsCollectionQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}

extension BrokerConnection {
    /// Runs a collection query and wraps its results for the app.
    func statisticsCollection(_ query: HKStatisticsCollectionQuery) async throws(HKError) -> HKStatisticsCollection {
        let spec = try query.spec.get()
        return HKStatisticsCollection(type: query.quantityType, results: try await statisticsCollection(spec),
                                      anchor: spec.anchor, interval: spec.interval, timeZone: query.timeZone,
                                      separateBySource: query.options.contains(.separateBySource))
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
