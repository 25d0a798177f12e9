public import Foundation

/// `HKAudiogramConductionType` (iOS 18.1): how the test tone reached the ear.
public enum HKAudiogramConductionType: Int, Sendable, CaseIterable {
    case air = 0
}

/// `HKAudiogramSensitivityTestSide` (iOS 18.1): the ear tested.
public enum HKAudiogramSensitivityTestSide: Int, Sendable, CaseIterable {
    case left = 0
    case right = 1
}

/// One ear's result at one frequency, as HealthKit's `HKAudiogramSensitivityTest` (iOS 18.1).
/// The initializer refuses what HealthKit refuses (`AudiogramRules`, the broker's rule too):
/// a sensitivity not in dBHL or outside −20…160 dBHL.
///
/// An `NSObject` with `NSSecureCoding`, as Apple's (`AudiogramArchiveFields`: the wire's
/// numbers, dBHL and raw values; an archive the initializer would refuse decodes as nil). Equal
/// when the values are (`==`, `isEqual(_:)`, `hash` and `Set` agree).
public final class HKAudiogramSensitivityTest: NSObject, NSSecureCoding, @unchecked Sendable {
    /// dBHL from a baseline of 0 dB; reduced hearing sensitivity is an increase from 0.
    public let sensitivity: HKQuantity
    public let type: HKAudiogramConductionType
    /// Whether the test was conducted with masking.
    public let masked: Bool
    public let side: HKAudiogramSensitivityTestSide
    /// The range the sensitivity was clamped to, if any.
    public let clampingRange: HKAudiogramSensitivityPointClampingRange?

    /// What the wire and store carry.
    let value: AudiogramValue.Test

    public init(sensitivity: HKQuantity, type: HKAudiogramConductionType, masked: Bool,
                side: HKAudiogramSensitivityTestSide, clampingRange: HKAudiogramSensitivityPointClampingRange?) throws {
        let dBHL = try sensitivity.value(in: .decibelHearingLevel())
        let value = AudiogramValue.Test(sensitivity: dBHL, conductionType: type.rawValue, masked: masked, side: side.rawValue,
                                        clampingLowerBound: clampingRange?.lowerBoundValue,
                                        clampingUpperBound: clampingRange?.upperBoundValue)
        try AudiogramRules.check(value)
        self.value = value
        self.sensitivity = sensitivity
        self.type = type
        self.masked = masked
        self.side = side
        self.clampingRange = clampingRange
        super.init()
    }

    /// A fetched test; nil when a raw value is one this SDK does not know (a newer healthd).
    init?(fetched value: AudiogramValue.Test) {
        guard let type = HKAudiogramConductionType(rawValue: value.conductionType),
              let side = HKAudiogramSensitivityTestSide(rawValue: value.side) else { return nil }
        self.value = value
        sensitivity = HKQuantity(unit: .decibelHearingLevel(), doubleValue: value.sensitivity)
        self.type = type
        masked = value.masked
        self.side = side
        clampingRange = value.isClamped
            ? HKAudiogramSensitivityPointClampingRange(lowerBoundValue: value.clampingLowerBound, upperBoundValue: value.clampingUpperBound)
            : nil
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKAudiogramSensitivityTest)?.value == value
    }

    public override var hash: Int { value.hashValue }

    /// No sensitivity in the text: descriptions end up in logs.
    public override var description: String { "HKAudiogramSensitivityTest(\(side), \(type), masked: \(masked))" }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        AudiogramArchiveFields.encodeTest(value, prefix: "", with: coder)
    }

    /// The sensitivity comes back in dBHL (the only unit of its kind).
    public required convenience init?(coder: NSCoder) {
        guard let value = AudiogramArchiveFields.decodeTest(prefix: "", from: coder) else { return nil }
        self.init(fetched: value)
    }
}
