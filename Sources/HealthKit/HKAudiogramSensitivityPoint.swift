public import Foundation

/// The results at one frequency of a hearing test, as HealthKit's `HKAudiogramSensitivityPoint`.
///
/// Both initializers refuse what HealthKit's refuse, with `HKError.errorInvalidArgument`
/// (`AudiogramRules`, which healthd applies again on save): a frequency not in hertz or outside
/// 0…30000 Hz, a sensitivity not in dBHL or outside −20…160 dBHL, no ear at all, and (iOS 18.1)
/// more than two tests or two for one ear. HealthKit raises an Objective-C exception for a unit
/// of the wrong dimension, which Swift cannot catch; here that is a thrown error too.
///
/// An `NSObject` with `NSSecureCoding`, as Apple's (`AudiogramArchiveFields`: the frequency in Hz
/// and each test's fields, flat; an archive the initializers would refuse decodes as nil). Equal
/// when the values are (`==`, `isEqual(_:)`, `hash` and `Set` agree).
public final class HKAudiogramSensitivityPoint: NSObject, NSSecureCoding, @unchecked Sendable {
    /// Hz.
    public let frequency: HKQuantity
    /// The tests conducted at this frequency (iOS 18.1).
    public let tests: [HKAudiogramSensitivityTest]

    /// What the wire and store carry.
    let value: AudiogramValue.Point

    /// The left ear's sensitivity in dBHL (deprecated in iOS 18.1 for `tests`): the unmasked
    /// air-conduction test's, else a masked one's; nil when the left ear was not tested.
    public var leftEarSensitivity: HKQuantity? { sensitivity(side: .left) }
    /// The right ear's, as `leftEarSensitivity`.
    public var rightEarSensitivity: HKQuantity? { sensitivity(side: .right) }

    /// HealthKit's iOS 13 initializer: an unmasked air-conduction test per ear given.
    public convenience init(frequency: HKQuantity, leftEarSensitivity: HKQuantity?, rightEarSensitivity: HKQuantity?) throws {
        var tests: [HKAudiogramSensitivityTest] = []
        for (sensitivity, side) in [(leftEarSensitivity, HKAudiogramSensitivityTestSide.left), (rightEarSensitivity, .right)] {
            guard let sensitivity else { continue }
            tests.append(try HKAudiogramSensitivityTest(sensitivity: sensitivity, type: .air, masked: false, side: side, clampingRange: nil))
        }
        try self.init(frequency: frequency, tests: tests)
    }

    /// HealthKit's iOS 18.1 initializer.
    public init(frequency: HKQuantity, tests: [HKAudiogramSensitivityTest]) throws {
        let value = AudiogramValue.Point(frequency: try frequency.value(in: .hertz()), tests: tests.map(\.value))
        try AudiogramRules.check(value)
        self.value = value
        self.frequency = frequency
        self.tests = tests
        super.init()
    }

    /// A fetched point; nil when a test holds a raw value this SDK does not know.
    init?(fetched value: AudiogramValue.Point) {
        let tests = value.tests.compactMap(HKAudiogramSensitivityTest.init(fetched:))
        guard tests.count == value.tests.count else { return nil }
        self.value = value
        frequency = HKQuantity(unit: .hertz(), doubleValue: value.frequency)
        self.tests = tests
        super.init()
    }

    private func sensitivity(side: HKAudiogramSensitivityTestSide) -> HKQuantity? {
        value.sensitivity(side: side.rawValue).map { HKQuantity(unit: .decibelHearingLevel(), doubleValue: $0) }
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKAudiogramSensitivityPoint)?.value == value
    }

    public override var hash: Int { value.hashValue }

    /// No values in the text: descriptions end up in logs.
    public override var description: String { "HKAudiogramSensitivityPoint(\(tests.count) tests)" }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        AudiogramArchiveFields.encodePoint(value, with: coder)
    }

    /// The frequency comes back in Hz and the sensitivities in dBHL.
    public required convenience init?(coder: NSCoder) {
        guard let value = AudiogramArchiveFields.decodePoint(from: coder) else { return nil }
        self.init(fetched: value)
    }
}
