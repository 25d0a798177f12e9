@testable import HealthModel

/// Samples and sources written in whole seconds, so the hand-computed expectations in the
/// statistics tests read as plain arithmetic.
enum Fixture {
    static func micros(_ seconds: Int64) -> Int64 { seconds * 1_000_000 }

    static func span(_ start: Int64, _ end: Int64) -> TimeSpan {
        TimeSpan(start: micros(start), end: micros(end))
    }

    static func sample(_ start: Int64, _ end: Int64, _ value: Double) -> StatisticsSample {
        StatisticsSample(span: span(start, end), value: value)
    }

    static func source(_ id: String, _ samples: [StatisticsSample]) -> SourceSamples {
        SourceSamples(source: SourceRecord(bundleIdentifier: id, name: id), samples: samples)
    }

    /// The merged total of `sources` (in priority order): the sum of every piece that counts.
    static func mergedTotal(_ sources: [SourceSamples]) -> Double {
        SourceMerger.merge(sources).pieces.reduce(0) { $0 + $1.value }
    }
}
