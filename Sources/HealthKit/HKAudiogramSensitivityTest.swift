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
public final class HKAudiogramSensitivityTest: Hashable, CustomStringConvertible, @unchecked Sendable {
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
    }

    public static func == (lhs: HKAudiogramSensitivityTest, rhs: HKAudiogramSensitivityTest) -> Bool {
        lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }

    /// No sensitivity in the text: descriptions end up in logs.
    public var description: String { "HKAudiogramSensitivityTest(\(side), \(type), masked: \(masked))" }
}
