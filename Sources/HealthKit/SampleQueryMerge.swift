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
        // One type, the common case: healthd already sorted and cut its list. Returned as is —
        // `joined()` in this unspecialized generic function looked up type metadata for every
        // element: 15 % of the app's CPU in a 10,000-sample query (perf, Benchmarks/README.md).
        if results.count == 1 { return results[0] }
        var merged: [Sample] = []
        merged.reserveCapacity(results.reduce(0) { $0 + $1.count })
        for list in results { merged.append(contentsOf: list) }
        guard results.count > 1 else { return merged }
        if !sorts.isEmpty { merged.sort { precedes($0, $1, by: sorts) } }  // stable
        guard limit > 0 else { return merged }
        return Array(merged.prefix(limit))
    }

    /// Whether `lhs` sorts before `rhs`: the first sort whose values differ decides.
    private static func precedes(_ lhs: HKSample, _ rhs: HKSample, by sorts: [SampleSort]) -> Bool {
        for sort in sorts {
            let (left, right) = (value(of: lhs, for: sort.key), value(of: rhs, for: sort.key))
            if left != right { return sort.ascending ? isLess(left, right) : isLess(right, left) }
        }
        return false
    }

    /// A sample's value for a sort key, as healthd orders it (SampleSQL.orderingTerm): dates
    /// as seconds, a workout total in its stored unit, nil for a total the workout lacks.
    private static func value(of sample: HKSample, for key: SampleSort.Key) -> Double? {
        switch key {
        case .startDate: sample.startDate.timeIntervalSinceReferenceDate
        case .endDate: sample.endDate.timeIntervalSinceReferenceDate
        case let .workout(total): (sample as? HKWorkout).flatMap { workoutValue($0, total) }
        }
    }

    private static func workoutValue(_ workout: HKWorkout, _ total: WorkoutTotal) -> Double? {
        let quantity: HKQuantity?
        switch total {
        case .duration: return workout.duration
        case .energyBurned: quantity = workout.totalEnergyBurned
        case .distance: quantity = workout.totalDistance
        case .swimmingStrokeCount: quantity = workout.totalSwimmingStrokeCount
        case .flightsClimbed: quantity = workout.totalFlightsClimbed
        }
        return quantity.map { $0.doubleValue(for: HKUnit(from: total.unit)) }
    }

    /// nil first, as SQLite orders NULL.
    private static func isLess(_ lhs: Double?, _ rhs: Double?) -> Bool {
        switch (lhs, rhs) {
        case let (left?, right?): left < right
        case (nil, _?): true
        case (_, nil): false
        }
    }
}
