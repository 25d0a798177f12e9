public import HealthModel
public import HealthWire

/// The activity methods: the user's goals over time and their own summaries.
extension ManagerClient {
    public func listActivityGoals() async throws(HealthCtlError) -> ActivityGoalSchedule {
        try await unary(.listActivityGoals, EmptyMessage(), action: "list the activity goals")
    }

    /// Changes the goals `update` names from its day on; returns the whole new schedule.
    public func setActivityGoals(_ update: ActivityGoalUpdate) async throws(HealthCtlError) -> ActivityGoalSchedule {
        try await unary(.setActivityGoals, update, action: "change the activity goals from \(update.effectiveFrom)")
    }

    /// The user's summaries from all their data, in the batches healthd sends them.
    public func activitySummaries(_ spec: ActivitySummaryQuerySpec) -> DecodedStream<ActivitySummaryBatch> {
        stream(.queryActivitySummaries, spec, action: "compute the activity summaries", as: ActivitySummaryBatch.self)
    }
}
