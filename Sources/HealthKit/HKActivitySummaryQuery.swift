public import Foundation
import HealthWire
import Synchronization

/// The user's daily activity summaries, as HealthKit's `HKActivitySummaryQuery`: one
/// `HKActivitySummary` per day that has data, oldest first. The broker computes them from the
/// samples this app may read for `HKActivitySummaryType` (request read authorization for
/// `HKObjectType.activitySummaryType()`); without that permission, from the app's own samples.
///
/// The predicate is nil (every day with data) or one made by
/// `HKQuery.predicate(forActivitySummariesBetweenStart:end:)`; its calendar's time zone decides
/// where days begin.
///
/// With an `updateHandler` set before `execute`, the query keeps running, as in HealthKit: after
/// the results handler, the update handler gets the new or changed days each time a summary
/// the app may see changes, until `stop(_:)`.
public final class HKActivitySummaryQuery: HKQuery, @unchecked Sendable {
    public typealias ResultsHandler = @Sendable (HKActivitySummaryQuery, [HKActivitySummary]?, (any Error)?) -> Void

    private let resultsHandler: ResultsHandler
    private let updates = Mutex<ResultsHandler?>(nil)
    let spec: Result<ActivitySummaryQuerySpec, HKError>

    /// Called after the results handler with the summaries that are new or changed, each time
    /// one the app may see changes; with an error if the query fails later (never for
    /// `stop(_:)`). Set it before `execute` to make the query long-running (setting it later has
    /// no effect on a running query, as in HealthKit). A plain closure where Apple's is
    /// `@Sendable`, as `HKAnchoredObjectQuery.updateHandler`, so Apple-style assignments compile
    /// in Swift 6 code (a handler that is a non-Sendable closure value, as real code passes the
    /// one it gave the initializer; see `AppHandler`).
    public var updateHandler: ((HKActivitySummaryQuery, [HKActivitySummary]?, (any Error)?) -> Void)? {
        get {
            guard let handler = updates.withLock({ $0 }) else { return nil }
            return handler
        }
        set {
            guard let newValue else { return updates.withLock { $0 = nil } }
            let box = AppHandler(function: newValue)
            let handler: ResultsHandler = { query, summaries, error in box.function(query, summaries, error) }
            updates.withLock { $0 = handler }
        }
    }

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
        let updateHandler = updates.withLock { $0 }
        let started = lifecycle.start { [self] in
            if let updateHandler {
                await runUpdating(on: connection, update: updateHandler)
                return
            }
            do throws(HKError) {
                let spec = try spec.get()
                let records = try await connection.activitySummaries(spec)
                resultsHandler(self, Self.summaries(records, spec), nil)
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

    /// The long-running form: the first delivery goes to the results handler, later ones to
    /// `update`. An error before the first delivery goes to the results handler; one after it to
    /// `update`, except the quiet end of a stopped query.
    private func runUpdating(on connection: BrokerConnection, update: @escaping ResultsHandler) async {
        let delivered = Mutex(false)
        do throws(HKError) {
            let spec = try spec.get()
            try await connection.activitySummaryUpdates(spec) { records in
                let first = delivered.withLock { delivered in
                    defer { delivered = true }
                    return !delivered
                }
                (first ? resultsHandler : update)(self, Self.summaries(records, spec), nil)
            }
        } catch {
            if delivered.withLock({ $0 }) {
                if error.code != .errorUserCanceled { update(self, nil, error) }
            } else {
                resultsHandler(self, nil, error)
            }
        }
    }

    static func summaries(_ records: [ActivitySummaryRecord], _ spec: ActivitySummaryQuerySpec) -> [HKActivitySummary] {
        let timeZone = TimeZone(identifier: spec.timeZoneIdentifier) ?? .current
        return records.map { HKActivitySummary($0, timeZone: timeZone) }
    }
}

/// HealthKit's async activity summary query: `try await descriptor.result(for: store)` for the
/// summaries now, `for try await summaries in descriptor.results(for: store)` for them and then
/// the new or changed ones after each change.
public struct HKActivitySummaryQueryDescriptor: @unchecked Sendable {
    /// nil, or a predicate from `HKQuery.predicate(forActivitySummariesBetweenStart:end:)`.
    public let predicate: NSPredicate?

    public init(predicate: NSPredicate?) {
        self.predicate = predicate
    }

    public func result(for healthStore: HKHealthStore) async throws -> [HKActivitySummary] {
        let spec = try HKActivitySummaryQuery.spec(predicate)
        return HKActivitySummaryQuery.summaries(try await healthStore.connection.activitySummaries(spec), spec)
    }

    /// As Apple documents it: "The first element of the stream will be a complete collection of
    /// activity summaries which match. Subsequent elements will contain only the activity
    /// summaries that have changed since the previous element was received." Ending the
    /// iteration (or cancelling its task) stops the query on healthd.
    public func results(for healthStore: HKHealthStore) -> Results {
        let (stream, continuation) = AsyncThrowingStream<[HKActivitySummary], any Error>.makeStream()
        let connection = healthStore.connection
        let request = Result { () throws(HKError) in try HKActivitySummaryQuery.spec(predicate) }
        let task = Task {
            do throws(HKError) {
                let spec = try request.get()
                try await connection.activitySummaryUpdates(spec) { records in
                    continuation.yield(HKActivitySummaryQuery.summaries(records, spec))
                }
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return Results(stream: stream)
    }

    public typealias Results = QueryResultSequence<[HKActivitySummary]>
}
