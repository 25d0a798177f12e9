public import Foundation

/// The range an ear's sensitivity may have been clamped to (for safety, hardware limits or the
/// test's algorithm), as HealthKit's `HKAudiogramSensitivityPointClampingRange` (iOS 18.1).
/// The initializer refuses what HealthKit refuses (`AudiogramRules.checkClampingRange`): no
/// bound at all, or a lower bound not less than the upper one; and, here, a bound that is not a
/// finite number.
public final class HKAudiogramSensitivityPointClampingRange: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// dBHL; nil when the range has no lower bound.
    public var lowerBound: HKQuantity? { lowerBoundValue.map { HKQuantity(unit: .decibelHearingLevel(), doubleValue: $0) } }
    /// dBHL; nil when the range has no upper bound.
    public var upperBound: HKQuantity? { upperBoundValue.map { HKQuantity(unit: .decibelHearingLevel(), doubleValue: $0) } }

    let lowerBoundValue: Double?
    let upperBoundValue: Double?

    /// HealthKit's `init(lowerBound:upperBound:)`: the bounds are numbers of dBHL.
    public convenience init(lowerBound: NSNumber?, upperBound: NSNumber?) throws {
        try AudiogramRules.checkClampingRange(lower: lowerBound?.doubleValue, upper: upperBound?.doubleValue)
        self.init(lowerBoundValue: lowerBound?.doubleValue, upperBoundValue: upperBound?.doubleValue)
    }

    init(lowerBoundValue: Double?, upperBoundValue: Double?) {
        self.lowerBoundValue = lowerBoundValue
        self.upperBoundValue = upperBoundValue
    }

    public static func == (lhs: HKAudiogramSensitivityPointClampingRange, rhs: HKAudiogramSensitivityPointClampingRange) -> Bool {
        lhs.lowerBoundValue == rhs.lowerBoundValue && lhs.upperBoundValue == rhs.upperBoundValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(lowerBoundValue)
        hasher.combine(upperBoundValue)
    }

    public var description: String { "HKAudiogramSensitivityPointClampingRange" }
}
