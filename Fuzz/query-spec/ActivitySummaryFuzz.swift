import Foundation
import HealthModel
import HealthWire

/// Activity summaries as `ActivitySummaryRepository.summaries` lays out their days before and
/// after its one read: the spec's checks (`validatedTimeZone`), the days of a bounded query
/// (`ActivityDayGrid.days`), the window of a half-open one, and — from the extent of the samples
/// read, stood in for by `StoredExtents` — the days of an open query; then the per-day totals.
///
/// The repository mixes this layout with its read (ActivitySummaryRepository.swift, `summaries`);
/// this mirrors those lines rather than calling them.
enum ActivitySummaryFuzz {
    static let edgeDays = 1_000

    static func run(_ payload: [UInt8]) {
        guard let spec = try? ActivitySummaryQuerySpec(wire: payload),
              let timeZone = try? spec.validatedTimeZone() else { return }
        // A validated spec re-validates, to the same zone.
        guard (try? spec.validatedTimeZone()) == timeZone else { violated("an activity summary spec that validated did not again") }
        if let first = spec.firstDay, let last = spec.lastDay {
            guard let days = try? ActivityDayGrid.days(from: first, through: last, in: timeZone) else { return }
            check(days)
            total(days)
            return
        }
        var window = TimeSpan.unbounded
        if let first = spec.firstDay {
            guard let days = try? ActivityDayGrid.days(from: first, through: first, in: timeZone) else { return }
            check(days)
            window.start = days.span.start
        }
        if let last = spec.lastDay {
            guard let days = try? ActivityDayGrid.days(from: last, through: last, in: timeZone) else { return }
            check(days)
            window.end = days.span.end
        }
        // The samples the read returns overlap the window; their extent lays out the days.
        for stored in StoredExtents.spans where stored.start <= window.end && window.start <= stored.end {
            let extent = TimeSpan(start: max(stored.start, window.start), end: max(max(stored.start, window.start), min(stored.end, window.end)))
            guard let covered = try? ActivityDayGrid.covering(extent, in: timeZone) else { continue }
            check(covered)
            guard let days = try? ActivityDayGrid.days(from: spec.firstDay ?? covered.firstDay,
                                                       through: spec.lastDay ?? covered.day(at: covered.count - 1), in: timeZone) else { continue }
            check(days)
            total(days)
        }
    }

    /// Days follow each other: boundaries strictly ascend (local midnights), each interval is
    /// a later calendar day than the one before, and there are no more than a query may have.
    static func check(_ days: ActivityDayGrid) {
        let boundaries = days.grid.boundaries
        guard days.count >= 1, days.count <= StatisticsLimits.maxIntervals else { violated("\(days.count) days in a grid") }
        for index in 1..<boundaries.count where boundaries[index] <= boundaries[index - 1] {
            violated("day boundaries do not ascend at \(index): \(boundaries[index - 1]) then \(boundaries[index])")
        }
        // Each day is a calendar lookup: on a long grid (up to 600,000 days) only its two ends,
        // so one input stays well under libFuzzer's timeout on the loaded machine.
        let checked = days.count <= 2 * edgeDays ? Array(1..<days.count) : Array(1..<edgeDays) + Array((days.count - edgeDays)..<days.count)
        for index in checked {
            let (day, previous) = (days.day(at: index), days.day(at: index - 1))
            guard day > previous else { violated("day \(index) (\(day)) is not after day \(index - 1) (\(previous))") }
        }
        _ = days.span
    }

    /// The per-day totals of samples at the grid's edges (the calculator's own arithmetic).
    static func total(_ days: ActivityDayGrid) {
        // The per-day arithmetic is the same on every day; a sample spread over 600,000 days
        // costs seconds of CPU per input (about 3 s at load 20), which trips libFuzzer's timeout.
        guard days.count <= 2 * edgeDays else { return }
        let span = days.span
        let source = SourceRecord(bundleIdentifier: "org.example.fuzz", name: "Fuzz")
        let energy = SourceSamples(source: source, samples: [StatisticsSample(span: span, value: 100),
                                                             StatisticsSample(start: span.start, end: span.start, value: 1)])
        let samples = ActivitySamples(activeEnergy: [energy], exerciseTime: [energy], moveTime: [energy], workouts: [span],
                                      standHours: [StandHourSample(start: span.start, stood: true),
                                                   StandHourSample(start: max(span.start, span.end - 1), stood: false)])
        let totals = ActivitySummaryCalculator.totals(of: samples, days: days)
        guard totals.count <= days.count else { violated("\(totals.count) totals for \(days.count) days") }
    }
}
