public import Foundation

/// The user's daily activity summaries, as HealthKit's `HKActivitySummaryQuery`: one
/// `HKActivitySummary` per day that has data, oldest first. The broker computes them from the
/// samples this app may read for `HKActivitySummaryType` (request read authorization for
/// `HKObjectType.activitySummaryType()`); without that permission, from the app's own samples.
///
/// The predicate is nil (every day with data) or one made by
/// `HKQuery.predicate(forActivitySummariesBetweenStart:end:)`; its calendar's time zone decides
/// where days begin.
public final class HKActivitySummaryQuery: HKQuery, @unchecked Sendable {
    public typealias ResultsHandler = @Sendable (HKActivitySummaryQuery, [HKActivitySummary]?, (any Error)?) -> Void

    private let resultsHandler: ResultsHandler
    let spec: Result<ActivitySummaryQuerySpec, HKError>

    @preconcurrency
    public init(predicate: NSPredicate?, resultsHandler: @escaping ResultsHandler) {
        self.resultsHandler = resultsHandler
        spec = Result { () throws(HKError) in try Self.spec(predicate) }
        super.init(objectType: HKObjectType.activitySummaryType(), predicate: predicate)
    }

    static func spec(_ predicate: NSPredicate?) throws(HKError) -> ActivitySummaryQuerySpec {
        switch predicate {
        case nil:
            return ActivitySummaryQuerySpec(timeZoneIdentifier: TimeZone.current.identifier)
        case let days as ActivitySummaryPredicate:
            return ActivitySummaryQuerySpec(firstDay: days.firstDay, lastDay: days.lastDay, timeZoneIdentifier: days.timeZone.identifier)
        case let unusable as UnusablePredicate:
            throw unusable.error
        default:
            throw HKError(.errorInvalidArgument, "an activity summary query takes a predicate from "
                          + "HKQuery.predicate(forActivitySummariesBetweenStart:end:) or predicateForActivitySummary(with:)")
        }
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                let spec = try spec.get()
                let records = try await connection.activitySummaries(spec)
                let timeZone = TimeZone(identifier: spec.timeZoneIdentifier) ?? .current
                resultsHandler(self, records.map { HKActivitySummary($0, timeZone: timeZone) }, nil)
            } catch {
                resultsHandler(self, nil, error)
            }
        }
        if !started {
            Task { [self] in
                resultsHandler(self, nil, HKError(.errorInvalidArgument,
                                                  "this HKActivitySummaryQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}

/// HealthKit's async activity summary query: `try await descriptor.result(for: store)`.
public struct HKActivitySummaryQueryDescriptor: @unchecked Sendable {
    /// nil, or a predicate from `HKQuery.predicate(forActivitySummariesBetweenStart:end:)`.
    public let predicate: NSPredicate?

    public init(predicate: NSPredicate?) {
        self.predicate = predicate
    }

    public func result(for healthStore: HKHealthStore) async throws -> [HKActivitySummary] {
        let spec = try HKActivitySummaryQuery.spec(predicate)
        let timeZone = TimeZone(identifier: spec.timeZoneIdentifier) ?? .current
        return try await healthStore.connection.activitySummaries(spec).map { HKActivitySummary($0, timeZone: timeZone) }
    }
}
