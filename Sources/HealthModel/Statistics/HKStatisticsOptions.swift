/// Which statistics a statistics query computes, as HealthKit's `HKStatisticsOptions`, with
/// HealthKit's raw values (they travel on the wire as the raw value).
public struct HKStatisticsOptions: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt

    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Per-source results next to the merged ones (`sumQuantity(for:)` and the like).
    public static let separateBySource = HKStatisticsOptions(rawValue: 1 << 0)
    public static let discreteAverage = HKStatisticsOptions(rawValue: 1 << 1)
    public static let discreteMin = HKStatisticsOptions(rawValue: 1 << 2)
    public static let discreteMax = HKStatisticsOptions(rawValue: 1 << 3)
    public static let cumulativeSum = HKStatisticsOptions(rawValue: 1 << 4)
    public static let mostRecent = HKStatisticsOptions(rawValue: 1 << 5)
    /// The time the samples cover, each instant once.
    public static let duration = HKStatisticsOptions(rawValue: 1 << 6)

    /// HealthKit's name before iOS 13 for `mostRecent`.
    public static let discreteMostRecent = mostRecent

    /// Every option this implementation knows.
    public static let all: HKStatisticsOptions = [.separateBySource, .discreteAverage, .discreteMin, .discreteMax,
                                                  .cumulativeSum, .mostRecent, .duration]

    /// HealthKit's constant names, in raw-value order: what error messages and descriptions use.
    static let names: [(HKStatisticsOptions, String)] = [
        (.separateBySource, "HKStatisticsOptionSeparateBySource"),
        (.discreteAverage, "HKStatisticsOptionDiscreteAverage"),
        (.discreteMin, "HKStatisticsOptionDiscreteMin"),
        (.discreteMax, "HKStatisticsOptionDiscreteMax"),
        (.cumulativeSum, "HKStatisticsOptionCumulativeSum"),
        (.mostRecent, "HKStatisticsOptionMostRecent"),
        (.duration, "HKStatisticsOptionDuration"),
    ]

    public var description: String {
        let names = Self.names.filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "HKStatisticsOptionNone" : names.joined(separator: "|")
    }
}

extension HKStatisticsOptions {
    /// Throws HealthKit's `errorInvalidArgument` when these options cannot be computed for
    /// `type`: a sum of a discrete type, an average/min/max of a cumulative one, or bits
    /// HealthKit does not define. Depends only on the request, never on stored data, so the
    /// answer is the same for every app whatever its permissions.
    public func validate(for type: HKQuantityType) throws(HKError) {
        let unknown = rawValue & ~Self.all.rawValue
        guard unknown == 0 else {
            throw HKError(.errorInvalidArgument, "Unknown statistics option bits 0x\(String(unknown, radix: 16))")
        }
        let discreteOnly: HKStatisticsOptions = [.discreteAverage, .discreteMin, .discreteMax]
        let (refused, kind): (HKStatisticsOptions, String) = type.aggregationStyle == .cumulative
            ? (intersection(discreteOnly), "cumulative")
            : (intersection(.cumulativeSum), "discrete")
        if let (_, name) = Self.names.first(where: { refused.contains($0.0) }) {
            throw HKError(.errorInvalidArgument,
                          "Statistics option \(name) is not compatible with \(kind) data type \(type.identifier)")
        }
    }
}
