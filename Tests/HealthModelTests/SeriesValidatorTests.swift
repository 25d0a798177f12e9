import Foundation
import Testing

@testable import HealthModel

/// Heartbeat series and electrocardiograms are checked before they are stored, one dimension at
/// a time: Apple's rules for beats (a positive time from the series start, in order, inside the
/// sample: developer.apple.com/documentation/healthkit/hkheartbeatseriesbuilder/
/// addheartbeatwithtimeinterval(sinceseriesstartdate:precededbygap:completion:)) and ECGs
/// (Apple's classification and symptoms raw values, spec/healthkit/enums.tsv).
@Suite(.timeLimit(.minutes(10))) struct SeriesValidatorTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    func series(_ times: [Double], end: Double = 60) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKDataTypeIdentifierHeartbeatSeries, startDate: Self.start,
                     endDate: Self.start.addingTimeInterval(end),
                     value: .heartbeatSeries(HeartbeatSeriesValue(beats: times.map { Heartbeat(timeSinceSeriesStart: $0, precededByGap: false) })))
    }

    @Test func beatsInOrderInsideTheSampleAreAccepted() throws {
        _ = try SampleValidator.canonicalized(series([0, 0.8, 1.6, 60]))
        _ = try SampleValidator.canonicalized(series([]))
    }

    @Test(arguments: [
        ([-0.1, 1], "heartbeat 1"), ([1, 0.5], "heartbeat 2"), ([1, .nan], "heartbeat 2"), ([1, .infinity], "heartbeat 2"),
        ([1, 60.5], "heartbeat 2"),
    ] as [([Double], String)])
    func aBadBeatIsRefusedWithItsPosition(times: [Double], named: String) {
        #expect {
            _ = try SampleValidator.canonicalized(series(times))
        } throws: { error in
            (error as? HKError)?.code == .errorInvalidArgument && (error as? HKError)?.message.contains(named) == true
        }
    }

    @Test func moreBeatsThanTheMaximumAreRefused() {
        let times = (0...SeriesValidator.maximumHeartbeats).map { Double($0) * 0.1 }
        #expect(throws: HKError.self) { _ = try SampleValidator.canonicalized(series(times, end: 2_000)) }
        _ = try? SampleValidator.canonicalized(series(Array(times.dropLast()), end: 2_000))
        #expect((try? SampleValidator.canonicalized(series(Array(times.dropLast()), end: 2_000))) != nil)
    }

    @Test func aSeriesWithoutItsBeatsIsRefused() {
        var record = series([1, 2])
        record.value = .heartbeatSeries(HeartbeatSeriesValue(count: 2))
        #expect(throws: HKError.self) { _ = try SampleValidator.canonicalized(record) }
    }

    func ecg(_ change: (inout ElectrocardiogramValue) -> Void = { _ in }) -> SampleRecord {
        var value = ElectrocardiogramValue(classification: 1, symptomsStatus: 1, averageHeartRate: 62, samplingFrequency: 512,
                                           voltageCount: 3, voltages: [1e-4, -2e-4, 3e-5])
        change(&value)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKElectrocardiogramTypeIdentifier, startDate: Self.start,
                            endDate: Self.start.addingTimeInterval(30), value: .electrocardiogram(value))
    }

    @Test func aWellFormedElectrocardiogramIsAccepted() throws {
        _ = try SampleValidator.canonicalized(ecg())
        _ = try SampleValidator.canonicalized(ecg { $0.classification = 100; $0.averageHeartRate = nil })
    }

    @Test(arguments: [
        "classification", "symptoms", "rate", "frequency", "count", "voltage",
    ])
    func aBadElectrocardiogramFieldIsRefused(field: String) {
        let record = ecg { value in
            switch field {
            case "classification": value.classification = 7
            case "symptoms": value.symptomsStatus = 3
            case "rate": value.averageHeartRate = -1
            case "frequency": value.samplingFrequency = 0
            case "count": value.voltageCount = 4
            default: value.voltages = [1e-4, .nan, 0]
            }
        }
        #expect(throws: HKError.self) { _ = try SampleValidator.canonicalized(record) }
    }

    /// HealthKit's `seriesType(forIdentifier:)` answers the two series identifiers and nothing else.
    @Test func seriesTypesAreFoundByTheirIdentifiersOnly() {
        #expect(HKObjectType.seriesType(forIdentifier: HKDataTypeIdentifierHeartbeatSeries) === HKSeriesType.heartbeat())
        #expect(HKObjectType.seriesType(forIdentifier: HKWorkoutRouteTypeIdentifier) === HKSeriesType.workoutRoute())
        #expect(HKObjectType.seriesType(forIdentifier: HKQuantityTypeIdentifier.heartRate.rawValue) == nil)
        #expect(HKObjectType.seriesType(forIdentifier: HKElectrocardiogramTypeIdentifier) == nil)
        #expect(HKObjectType.type(forIdentifier: HKElectrocardiogramTypeIdentifier) === HKObjectType.electrocardiogramType())
    }
}
