import Foundation
import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// Activity summaries and goals. Summaries are computed at each query from the samples the
/// reader's scope for `HKActivitySummaryType` admits (`ActivitySummaryRepository`): an app without
/// read permission for activity summaries gets the summaries of its own samples, without the
/// user's goals; the manager gets the user's whole data.
enum ActivitySummaryService {
    /// Summaries per stream message: a day is about 100 bytes on the wire.
    static let summariesPerBatch = 500

    /// HKActivitySummaryQuery.
    static func query(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        let spec = try ActivitySummaryQuerySpec(wire: payload)
        _ = try spec.validatedTimeZone()
        let type = HKObjectType.activitySummaryType().identifier
        let report = CallAccessReport.current
        // Each batch only while the app's scope is the one the days were computed under
        // (`StreamVisibility`); otherwise computed again under the scope in force now, from the
        // samples committed by the first computation (its snapshot), going on after the last day sent.
        var lastSent: CalendarDay?
        var first = true
        var rereading = false
        let visibility = try await context.store.withDatabase { database in
            try StreamVisibility(app: app, types: [type], in: database)
        }
        while true {
            // As StatisticsService: the closure sets the outcome rather than returning it.
            var computed: ActivitySummaryRepository.Outcome?
            try await context.store.withDatabase { database in
                // The scopes in force now, resolved while the store is open, as at the first reading.
                if rereading { try visibility.refresh() }
                computed = try database.activitySummaries.summaries(spec, scope: visibility.scope(type), within: visibility.snapshot)
            }
            guard let outcome = computed else { return }
            if first {
                report?.record(appID: app.id, types: [type], count: outcome.sampleCount, detail: "\(outcome.summaries.count) days")
                first = false
            }
            let unsent = outcome.summaries.filter { summary in lastSent.map { summary.day > $0 } ?? true }
            var start = 0
            var stale = false
            while start < unsent.count {
                let end = min(start + summariesPerBatch, unsent.count)
                guard try await responder.send(ActivitySummaryBatch(Array(unsent[start..<end]), endOfDelivery: false).wireBytes(),
                                               ifStillCurrent: visibility.isCurrent) else {
                    stale = true
                    break
                }
                lastSent = unsent[end - 1].day
                start = end
            }
            if !stale { return }
            rereading = true
        }
    }

    /// The user's own summaries, from every source (`healthctl activity summary`).
    static func queryForManager(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8],
                                _ responder: CallResponder) async throws {
        let spec = try ActivitySummaryQuerySpec(wire: payload)
        _ = try spec.validatedTimeZone()
        let report = CallAccessReport.current
        let outcome = try await context.store.withDatabase { database in
            try database.activitySummaries.summaries(spec, scope: .allSources)
        }
        report?.record(appID: nil, types: [HKObjectType.activitySummaryType().identifier], count: outcome.sampleCount,
                       detail: "\(outcome.summaries.count) days")
        try await send(outcome.summaries, to: responder, markingTheEnd: false)
    }

    static func listGoals(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        _ = try EmptyMessage(wire: payload)
        let schedule = try await context.store.withDatabase { try $0.activityGoals.schedule() }
        CallAccessReport.record(appID: nil, types: [HKObjectType.activitySummaryType().identifier], count: schedule.changes.count,
                                detail: "activity goals")
        return MethodTable.Reply(schedule)
    }

    /// Changes goals from a day on; answers the whole new schedule.
    static func setGoals(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8]) async throws -> MethodTable.Reply {
        let update = try ActivityGoalUpdate(wire: payload)
        guard !update.changesNothing else {
            throw HKError(.errorInvalidArgument, "name at least one goal to change (move, exercise, stand or move time)")
        }
        let schedule = try await context.store.withDatabase { try $0.activityGoals.apply(update) }
        CallAccessReport.record(appID: nil, types: [HKObjectType.activitySummaryType().identifier], count: 1,
                                detail: "activity goals from \(update.effectiveFrom)")
        context.logger.notice("activity goals changed")
        context.changes.post(userSettingsChangedFor: HKObjectType.activitySummaryType().identifier)
        return MethodTable.Reply(schedule)
    }

    /// `summaries` in batches; with `markingTheEnd`, the last batch (an empty one when there are
    /// none) ends a delivery of a long-running query (`ActivitySummaryWatchService`).
    static func send(_ summaries: [ActivitySummaryRecord], to responder: CallResponder, markingTheEnd: Bool) async throws {
        var start = 0
        repeat {
            let end = min(start + summariesPerBatch, summaries.count)
            guard end > start || markingTheEnd else { return }
            try await responder.send(ActivitySummaryBatch(Array(summaries[start..<end]), endOfDelivery: markingTheEnd && end == summaries.count).wireBytes())
            start = end
        } while start < summaries.count
    }
}
