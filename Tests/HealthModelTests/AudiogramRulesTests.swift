import Foundation
import Testing

@testable import HealthModel

/// Audiogram rules, one dimension at a time, each at its edge and one past it. HealthKit's
/// documented rules: at most 30 points, "Frequencies must be unique, and ordered ascending"
/// (developer.apple.com/documentation/healthkit/hkaudiogramsample/init(sensitivitypoints:start:end:device:metadata:));
/// a clamping range needs a bound and lower < upper
/// (developer.apple.com/documentation/healthkit/hkaudiogramsensitivitypointclampingrange, its
/// header); frequencies in hertz and sensitivities in dBHL within HealthKit's ranges, 0…30000 Hz
/// and −20…160 dBHL ("Errors may include incorrect quantity units or data that is out of an
/// expected range", developer.apple.com/documentation/healthkit/hkaudiogramsensitivitypoint).
@Suite(.timeLimit(.minutes(10))) struct AudiogramRulesTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    static func point(_ frequency: Double, left: Double? = 20, right: Double? = 25) -> AudiogramValue.Point {
        var tests: [AudiogramValue.Test] = []
        if let left { tests.append(AudiogramValue.Test(sensitivity: left, side: 0)) }
        if let right { tests.append(AudiogramValue.Test(sensitivity: right, side: 1)) }
        return AudiogramValue.Point(frequency: frequency, tests: tests)
    }

    static func record(_ points: [AudiogramValue.Point]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierAudiogram, startDate: date, endDate: date.addingTimeInterval(600),
                     value: .audiogram(AudiogramValue(points: points)))
    }

    static func refusal(_ points: [AudiogramValue.Point]) -> String? {
        do {
            _ = try SampleValidator.canonicalized(record(points))
            return nil
        } catch {
            #expect(error.code == .errorInvalidArgument)
            return error.message
        }
    }

    @Test func aTypicalAudiogramIsAccepted() throws {
        let points = [500.0, 1000, 2000, 4000, 8000].map { Self.point($0) }
        let canonical = try SampleValidator.canonicalized(Self.record(points))
        #expect(canonical.value == .audiogram(AudiogramValue(points: points)))
    }

    @Test func zeroPointsAreAccepted() {
        // HealthKit documents a maximum, no minimum.
        #expect(Self.refusal([]) == nil)
    }

    @Test func thirtyPointsAreAcceptedAndThirtyOneRefused() {
        let thirty = (1...30).map { Self.point(Double($0) * 100) }
        #expect(Self.refusal(thirty) == nil)
        let message = Self.refusal(thirty + [Self.point(20_000)])
        #expect(message?.contains("at most 30 sensitivity points") == true)
    }

    @Test func aMillionPointsAreRefusedByCountBeforeAnyPointIsChecked() {
        let many = Array(repeating: Self.point(1000), count: 1_000_000)
        #expect(Self.refusal(many)?.contains("at most 30") == true)
    }

    @Test func frequenciesMustAscend() {
        #expect(Self.refusal([Self.point(1000), Self.point(500)])?.contains("ascending") == true)
    }

    @Test func aRepeatedFrequencyIsRefused() {
        #expect(Self.refusal([Self.point(1000), Self.point(1000)])?.contains("unique") == true)
    }

    @Test(arguments: [0.0, 30_000])
    func frequencyRangeEdgesAreAccepted(frequency: Double) {
        #expect(Self.refusal([Self.point(frequency)]) == nil)
    }

    @Test(arguments: [-0.001, 30_000.001, .nan, .infinity, -.infinity, 1e308, -1e308])
    func frequenciesOutsideTheRangeAreRefused(frequency: Double) {
        #expect(Self.refusal([Self.point(frequency)])?.contains("frequency is outside the range 0 - 30000 Hz") == true)
    }

    @Test(arguments: [-20.0, 160])
    func sensitivityRangeEdgesAreAccepted(sensitivity: Double) {
        #expect(Self.refusal([Self.point(1000, left: sensitivity, right: sensitivity)]) == nil)
    }

    @Test(arguments: [-20.001, 160.001, .nan, .infinity, -.infinity, 1e308])
    func sensitivitiesOutsideTheRangeAreRefused(sensitivity: Double) {
        #expect(Self.refusal([Self.point(1000, left: 20, right: sensitivity)])?.contains("-20 - 160 dBHL") == true)
    }

    @Test func aPointWithNoEarIsRefused() {
        #expect(Self.refusal([Self.point(1000, left: nil, right: nil)])?.contains("at least one test") == true)
    }

    @Test func oneEarAloneIsAccepted() {
        #expect(Self.refusal([Self.point(1000, left: nil, right: 30)]) == nil)
    }

    @Test func twoTestsForOneEarAreRefused() {
        let tests = [AudiogramValue.Test(sensitivity: 20, side: 0), AudiogramValue.Test(sensitivity: 25, masked: true, side: 0)]
        #expect(Self.refusal([AudiogramValue.Point(frequency: 1000, tests: tests)])?.contains("one test per ear") == true)
    }

    @Test func threeTestsAreRefused() {
        let tests = [0, 1, 1].map { AudiogramValue.Test(sensitivity: 20, side: $0) }
        #expect(Self.refusal([AudiogramValue.Point(frequency: 1000, tests: tests)])?.contains("at most 2 tests") == true)
    }

    @Test(arguments: [(2, 0), (0, 2), (0, -1), (-1, 0)] as [(Int, Int)])
    func unknownSidesAndConductionTypesAreRefused(side: Int, conduction: Int) {
        let test = AudiogramValue.Test(sensitivity: 20, conductionType: conduction, side: side)
        #expect(Self.refusal([AudiogramValue.Point(frequency: 1000, tests: [test])]) != nil)
    }

    @Test(arguments: [(nil, 40.0), (10.0, nil), (10.0, 40.0)] as [(Double?, Double?)])
    func clampingRangesWithABoundBelowTheOtherAreAccepted(lower: Double?, upper: Double?) throws {
        try AudiogramRules.checkClampingRange(lower: lower, upper: upper)
    }

    @Test(arguments: [(40.0, 40.0), (41.0, 40.0), (.nan, 40.0), (10.0, .infinity)] as [(Double?, Double?)])
    func clampingRangesWithoutOrderOrFiniteBoundsAreRefused(lower: Double?, upper: Double?) {
        #expect(throws: HKError.self) { try AudiogramRules.checkClampingRange(lower: lower, upper: upper) }
    }

    @Test func aClampingRangeWithoutBoundsIsRefused() {
        #expect(throws: HKError(.errorInvalidArgument, "a clamping range needs at least one bound")) {
            try AudiogramRules.checkClampingRange(lower: nil, upper: nil)
        }
    }

    @Test func messagesNameThePointAndTheTypeButNoValue() {
        let message = Self.refusal([Self.point(1000), Self.point(2000, left: 161.5)])
        #expect(message?.hasPrefix("HKDataTypeIdentifierAudiogram: sensitivity point 2:") == true)
        #expect(message?.contains("161") == false)
    }

    @Test func theTypeIsRegisteredUnderApplesIdentifier() {
        #expect(HKObjectType.audiogramSampleType().identifier == "HKDataTypeIdentifierAudiogram")
        #expect(HKObjectType.type(forIdentifier: "HKDataTypeIdentifierAudiogram") === HKObjectType.audiogramSampleType())
    }

    @Test func legacyEarSensitivityPrefersTheUnmaskedTest() {
        let point = AudiogramValue.Point(frequency: 1000, tests: [AudiogramValue.Test(sensitivity: 40, masked: true, side: 0),
                                                                 AudiogramValue.Test(sensitivity: 30, side: 1)])
        #expect(point.sensitivity(side: 0) == 40)
        #expect(point.sensitivity(side: 1) == 30)
    }
}
