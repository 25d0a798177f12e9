/// The rows an activity summary is computed from, as the store reads them under one read scope.
/// Quantities are in their types' canonical units (kcal, min); each list of sources is in the
/// type's priority order, highest first (`SourceSamples`).
public struct ActivitySamples: Hashable, Sendable {
    public var activeEnergy: [SourceSamples]
    public var exerciseTime: [SourceSamples]
    public var moveTime: [SourceSamples]
    /// Each workout's span, any source.
    public var workouts: [TimeSpan]
    /// Each stand-hour sample (any source): when it starts, and whether its value is `stood`.
    public var standHours: [StandHourSample]

    public init(activeEnergy: [SourceSamples] = [], exerciseTime: [SourceSamples] = [], moveTime: [SourceSamples] = [],
                workouts: [TimeSpan] = [], standHours: [StandHourSample] = []) {
        self.activeEnergy = activeEnergy
        self.exerciseTime = exerciseTime
        self.moveTime = moveTime
        self.workouts = workouts
        self.standHours = standHours
    }

    /// The earliest start and latest end of every sample; nil when there is none.
    public var extent: TimeSpan? {
        var start = Int64.max, end = Int64.min
        func include(_ span: TimeSpan) {
            start = min(start, span.start)
            end = max(end, span.end)
        }
        for source in activeEnergy + exerciseTime + moveTime { source.samples.forEach { include($0.span) } }
        workouts.forEach(include)
        standHours.forEach { include(TimeSpan(start: $0.start, end: $0.start)) }
        return start <= end ? TimeSpan(start: start, end: end) : nil
    }

    /// How many samples and workouts were read (the access log's count).
    public var count: Int {
        (activeEnergy + exerciseTime + moveTime).reduce(0) { $0 + $1.samples.count } + workouts.count + standHours.count
    }
}

/// One `HKCategoryTypeIdentifierAppleStandHour` sample, as the summary needs it.
public struct StandHourSample: Hashable, Sendable {
    /// Microseconds since 1970.
    public var start: Int64
    /// `HKCategoryValueAppleStandHour.stood` (rather than `.idle`).
    public var stood: Bool

    public init(start: Int64, stood: Bool) {
        self.start = start
        self.stood = stood
    }
}
