public import Foundation

/// The range an ear's sensitivity may have been clamped to (for safety, hardware limits or the
/// test's algorithm), as HealthKit's `HKAudiogramSensitivityPointClampingRange` (iOS 18.1).
/// The initializer refuses what HealthKit refuses (`AudiogramRules.checkClampingRange`): no
/// bound at all, or a lower bound not less than the upper one; and, here, a bound that is not a
/// finite number.
///
/// An `NSObject` with `NSSecureCoding`, as Apple's (`AudiogramArchiveFields`: the bounds as
/// numbers of dBHL; an archive the initializer would refuse decodes as nil). Equal when the
/// bounds are (`==`, `isEqual(_:)`, `hash` and `Set` agree).
public final class HKAudiogramSensitivityPointClampingRange: NSObject, NSSecureCoding, @unchecked Sendable {
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
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKAudiogramSensitivityPointClampingRange else { return false }
        return other.lowerBoundValue == lowerBoundValue && other.upperBoundValue == upperBoundValue
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(lowerBoundValue)
        hasher.combine(upperBoundValue)
        return hasher.finalize()
    }

    public override var description: String { "HKAudiogramSensitivityPointClampingRange" }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        AudiogramArchiveFields.encodeClamping(lower: lowerBoundValue, upper: upperBoundValue, prefix: "", with: coder)
    }

    public required convenience init?(coder: NSCoder) {
        guard let bounds = AudiogramArchiveFields.decodeClamping(prefix: "", from: coder),
              (try? AudiogramRules.checkClampingRange(lower: bounds.lower, upper: bounds.upper)) != nil else { return nil }
        self.init(lowerBoundValue: bounds.lower, upperBoundValue: bounds.upper)
    }
}
