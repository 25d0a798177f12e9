/// Computes each day's activity totals from the samples a reader may see. Pure: the store hands
/// it the rows of one read scope.
///
/// - Active energy and move time: the day's merged sum (`StatisticsCalculator`'s cumulative
///   sum, so overlapping sources count once, by the user's source priority, prorated by time
///   across midnight).
/// - Exercise minutes: the same for exercise time, with the union of all workouts added as one
///   more source ranked below every exercise-time source, worth one minute per minute: a
///   workout adds the time no exercise-time sample covers (pauses included; the store keeps
///   no per-minute activity).
/// - Stand hours: the hours of the day — whole hours of absolute time from local midnight, so
///   23 or 25 across a DST change — in which a `stood` stand-hour sample starts, each hour once
///   whatever the number of sources.
///
/// A day is returned when any of these samples (including an idle stand hour, or a sample of
/// value zero) starts in it or shares time with it; other days have no summary, as in HealthKit.
public enum ActivitySummaryCalculator {
    static let microsecondsPerHour: Int64 = 3_600_000_000
    static let microsecondsPerMinute = 60_000_000.0

    /// The source workouts count as within exercise time: never stored, never shown.
    static let workoutSource = SourceRecord(bundleIdentifier: "@workouts", name: "Workouts")

    /// Totals for the days of `days` that have data, in day order.
    public static func totals(of samples: ActivitySamples, days: ActivityDayGrid) -> [ActivityDay] {
        var hasData = [Bool](repeating: false, count: days.count)
        let energy = dailySums(samples.activeEnergy, days, &hasData)
        let exercise = dailySums(samples.exerciseTime + [workoutTime(samples.workouts)], days, &hasData)
        let moveTime = dailySums(samples.moveTime, days, &hasData)
        let stand = standHours(samples.standHours, days, &hasData)
        return hasData.indices.filter { hasData[$0] }.map { index in
            ActivityDay(day: days.day(at: index), start: days.grid.boundaries[index],
                        totals: ActivityTotals(activeEnergyBurned: energy[index], exerciseMinutes: exercise[index],
                                               standHours: stand[index], moveTimeMinutes: moveTime[index]))
        }
    }

    /// Each day's merged sum, marking the days that received anything.
    private static func dailySums(_ sources: [SourceSamples], _ days: ActivityDayGrid, _ hasData: inout [Bool]) -> [Double] {
        var sums = [Double](repeating: 0, count: days.count)
        let calculator = StatisticsCalculator(aggregationStyle: .cumulative, options: .cumulativeSum)
        for result in calculator.compute(sources, grid: days.grid, window: days.span) {
            guard let index = days.grid.index(containing: result.span.start) else { continue }
            sums[index] = result.merged.sum ?? 0
            hasData[index] = true
        }
        return sums
    }

    /// Workouts as exercise time: their union (overlapping workouts count once), a minute per minute.
    private static func workoutTime(_ workouts: [TimeSpan]) -> SourceSamples {
        let union = TimeSpanSet(workouts)
        return SourceSamples(source: workoutSource, samples: union.spans.map {
            StatisticsSample(span: $0, value: Double($0.length) / microsecondsPerMinute)
        })
    }

    private static func standHours(_ samples: [StandHourSample], _ days: ActivityDayGrid, _ hasData: inout [Bool]) -> [Int] {
        var stood = [Set<Int64>](repeating: [], count: days.count)
        for sample in samples {
            guard let index = days.grid.index(containing: sample.start) else { continue }
            hasData[index] = true
            if sample.stood { stood[index].insert((sample.start - days.grid.boundaries[index]) / microsecondsPerHour) }
        }
        return stood.map(\.count)
    }
}

/// One day with data and what its samples add up to.
public struct ActivityDay: Hashable, Sendable {
    public var day: CalendarDay
    /// The day's local midnight, microseconds since 1970.
    public var start: Int64
    public var totals: ActivityTotals
}
