public import Foundation

/// The checks a quantity series passes before it is stored, after the sample's own (dates,
/// unit, metadata). Pure: `HKQuantitySeriesSampleBuilder` runs the same checks as quantities
/// are inserted; healthd's run (`SampleValidator`) is authoritative. Messages name the position
/// of a bad quantity, never its value.
public enum QuantitySeriesRules {
    /// Apple does not document a limit. This keeps one series (at most ~26 bytes a quantity on
    /// the wire) inside a third of a 4 MiB frame; about 14 hours of per-second data, longer than
    /// any one workout's high-frequency series.
    public static let maximumCount = 50_000

    /// `data` (in the sample's unit): at least one quantity, each finite, with an interval inside
    /// the sample's (`start ≤ datum.start ≤ datum.end ≤ end`), in start order and not
    /// overlapping — two quantities of one sample never count the same time twice, which is
    /// what lets statistics split a series by its quantities' intervals.
    public static func check(_ data: [QuantitySeriesDatum], start: Date, end: Date) throws(HKError) {
        guard !data.isEmpty else {
            throw HKError(.errorInvalidArgument, "a quantity series needs at least one quantity; insert quantities before finishSeries")
        }
        guard data.count <= maximumCount else {
            throw HKError(.errorInvalidArgument, "a quantity series holds at most \(maximumCount) quantities; finish this series and start another")
        }
        var previousEnd = start
        var previousStart: Date?
        for (index, datum) in data.enumerated() {
            guard datum.value.isFinite else {
                throw HKError(.errorInvalidArgument, "quantity \(index + 1) of the series is not a finite number")
            }
            guard datum.start <= datum.end else {
                throw HKError(.errorInvalidArgument, "quantity \(index + 1) of the series ends before it starts")
            }
            guard datum.start >= start, datum.end <= end else {
                throw HKError(.errorInvalidArgument, "quantity \(index + 1) of the series lies outside the sample's start and end dates")
            }
            // Two quantities may not start at once, even zero-length ones (the builder keeps the
            // later of two inserted at one start, as HealthKit's does).
            guard datum.start >= previousEnd, previousStart.map({ datum.start > $0 }) ?? true else {
                throw HKError(.errorInvalidArgument,
                              "quantity \(index + 1) of the series starts before the previous one ends; quantities must be in time order and not overlap")
            }
            previousEnd = datum.end
            previousStart = datum.start
        }
    }
}
