/// How samples of a quantity type combine in statistics, with HealthKit's raw values.
public enum HKQuantityAggregationStyle: Int, Sendable, CaseIterable, Codable {
    /// Samples add up (steps, energy, distance).
    case cumulative = 0
    /// Samples average arithmetically (body mass, blood glucose).
    case discreteArithmetic = 1
    /// Samples average weighted by the time each one covers (heart rate).
    case discreteTemporallyWeighted = 2
    /// Samples combine as an equivalent continuous sound level (Leq, IEC 61672-1).
    case discreteEquivalentContinuousLevel = 3

    /// HealthKit's name before iOS 13 for `discreteArithmetic`.
    public static let discrete = HKQuantityAggregationStyle.discreteArithmetic
}
