/// HealthKit-style merging of cumulative samples from several sources: every instant is
/// counted once, from the highest-priority source that has a sample covering it.
///
/// Sources come in priority order, highest first. A sample of source *k* contributes the
/// parts of its span that no sample of sources 0..<k covers, each part carrying the sample's
/// value prorated by time (`value × part length ÷ sample length`). Samples of one source are
/// never merged with each other: two overlapping samples of the same app both count, as the
/// app saved them.
///
/// An instant sample (start == end) covers no time, so it never hides anything; it counts in
/// full unless a higher-priority source's sample covers its instant (`start ≤ t < end`).
///
/// ARCHITECTURE.md ("Statistics and source merging") states the same rules with a worked example.
public enum SourceMerger {
    /// A part of a sample that counts after merging.
    public struct Piece: Hashable, Sendable {
        /// Index of the sample's source in the list given to `merge`.
        public var sourceIndex: Int
        /// The part of the sample's span that counts; an instant for an instant sample.
        public var span: TimeSpan
        /// The sample's value prorated to `span`.
        public var value: Double
    }

    public struct Result: Sendable {
        /// What counts, source by source in priority order, each source's pieces in sample order.
        public var pieces: [Piece]
        /// The time each source's samples cover (its own union), by source index.
        public var coverage: [TimeSpanSet]
    }

    public static func merge(_ sources: [SourceSamples]) -> Result {
        var pieces: [Piece] = []
        pieces.reserveCapacity(sources.reduce(0) { $0 + $1.samples.count })
        let coverage = forEachPiece(of: sources, keepingCoverage: true) { pieces.append($0) }
        return Result(pieces: pieces, coverage: coverage)
    }

    /// The pieces `merge` returns, in the same order, handed to `body` one by one instead of
    /// collected: a year of per-minute samples is half a million pieces, and the statistics
    /// spread each over its intervals at once. Returns each source's coverage when
    /// `keepingCoverage`, else nothing — and then the last source's union, which hides nothing,
    /// is not built (with a single source, the common case, no union is built at all).
    @discardableResult
    public static func forEachPiece(of sources: [SourceSamples], keepingCoverage: Bool,
                                    _ body: (Piece) -> Void) -> [TimeSpanSet] {
        var covered = TimeSpanSet()
        var coverage: [TimeSpanSet] = []
        coverage.reserveCapacity(keepingCoverage ? sources.count : 0)
        for (index, source) in sources.enumerated() {
            for sample in source.samples {
                if sample.span.isInstant {
                    if !covered.contains(sample.span.start) {
                        body(Piece(sourceIndex: index, span: sample.span, value: sample.value))
                    }
                    continue
                }
                let length = Double(sample.span.length)
                covered.forEachGap(in: sample.span) { gap in
                    body(Piece(sourceIndex: index, span: gap, value: sample.value * Double(gap.length) / length))
                }
            }
            // Only after the whole source: its own samples must not hide each other.
            guard keepingCoverage || index < sources.count - 1 else { continue }
            let own = TimeSpanSet(source.samples.lazy.map(\.span))
            covered.formUnion(own)
            if keepingCoverage { coverage.append(own) }
        }
        return coverage
    }

    /// Each sample whole, as `.separateBySource` and a single source need: nothing is merged.
    public static func unmerged(_ source: SourceSamples, index: Int) -> [Piece] {
        source.samples.map { Piece(sourceIndex: index, span: $0.span, value: $0.value) }
    }
}
