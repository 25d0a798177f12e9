/// Several types in one sample query: healthd answers one type per query (each under that
/// type's own read grant), so `HKSampleQueryDescriptor` with several predicates and
/// `HKSampleQuery(queryDescriptors:…)` run one query per type and merge here — the one place
/// that decides the merged order and the cut. Each type's query carries the whole limit, which
/// is enough: the first `limit` samples of the merge are among the first `limit` of each type.
enum SampleQueryMerge {
    /// `results` (one list per type, each in `sorts` order) as one list: sorted by `sorts`
    /// (stable, so samples equal in every key keep their type's order and the descriptors'
    /// order between types; without sorts, the lists follow each other in descriptor order),
    /// and cut to `limit` (0: no limit).
    static func merged<Sample: HKSample>(_ results: [[Sample]], sorts: [SampleSort], limit: Int) -> [Sample] {
        var merged = Array(results.joined())
        guard results.count > 1 else { return merged }
        if !sorts.isEmpty { merged.sort { precedes($0, $1, by: sorts) } }  // stable
        guard limit > 0 else { return merged }
        return Array(merged.prefix(limit))
    }

    /// Whether `lhs` sorts before `rhs`: the first sort whose dates differ decides.
    private static func precedes(_ lhs: HKSample, _ rhs: HKSample, by sorts: [SampleSort]) -> Bool {
        for sort in sorts {
            let (left, right) = sort.key == .startDate ? (lhs.startDate, rhs.startDate) : (lhs.endDate, rhs.endDate)
            if left != right { return sort.ascending ? left < right : left > right }
        }
        return false
    }
}
