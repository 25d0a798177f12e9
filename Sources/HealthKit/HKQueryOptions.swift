/// How `HKQuery.predicateForSamples(withStart:end:options:)` treats samples that straddle the
/// range's edges, as HealthKit's `HKQueryOptions`.
public struct HKQueryOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) { self.rawValue = rawValue }

    // No options (`[]`): a sample matches when it overlaps the range at all.

    /// Only samples that start at or after the range's start.
    public static let strictStartDate = HKQueryOptions(rawValue: 1 << 0)
    /// Only samples that end at or before the range's end.
    public static let strictEndDate = HKQueryOptions(rawValue: 1 << 1)
}
