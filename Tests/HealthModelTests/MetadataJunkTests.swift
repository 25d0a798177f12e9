import Foundation
import Testing

@testable import HealthModel

/// Every metadata value an app can store passes one check (`MetadataValidator`), whatever
/// carries it: a sample, a correlated sample, a workout event, a workout activity, a finished
/// route. Generated: each carrier × each junk value, one at a time, from a valid record.
/// Session 12: metadata dates had no window (the year 294,000 and 1 BC were stored), and a
/// quantity finite as written (1e308 km) was infinite once converted.
@Suite(.timeLimit(.minutes(10))) struct MetadataJunkTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let key = "org.test.value"

    /// Refused values, each with what the refusal must say.
    static let junk: [(name: String, value: MetadataValue, says: String)] = [
        ("date at Int64.max microseconds", .date(Date(microsecondsSince1970: .max)), "metadata date"),
        ("date at Int64.min microseconds", .date(Date(microsecondsSince1970: .min)), "metadata date"),
        ("date a microsecond after 2200-01-01", .date(SampleLimits.latestPermittedSampleDate.addingTimeInterval(0.000_001)), "metadata date"),
        ("date a second before 1900-01-01", .date(SampleLimits.earliestPermittedSampleDate.addingTimeInterval(-1)), "metadata date"),
        ("number NaN", .number(.nan), "not a finite number"),
        ("number +inf", .number(.infinity), "not a finite number"),
        ("number -inf", .number(-.infinity), "not a finite number"),
        ("quantity NaN m", .quantity(value: .nan, unit: "m"), "not a finite number"),
        ("quantity 1e308 km", .quantity(value: 1e308, unit: "km"), "base unit"),
        ("quantity -1e308 mi", .quantity(value: -1e308, unit: "mi"), "base unit"),
        ("quantity 1e308 dBASPL", .quantity(value: 1e308, unit: "dBASPL"), "base unit"),
        ("quantity 1e308 kcal", .quantity(value: 1e308, unit: "kcal"), "base unit"),
        // Session 16: finite in metres, infinite in centimetres (or any smaller unit).
        ("quantity 1e308 m", .quantity(value: 1e308, unit: "m"), "base unit"),
        ("quantity -1e241 m", .quantity(value: -1e241, unit: "m"), "base unit"),
        ("quantity in a unit 10^564 m", .quantity(value: 1, unit: "Tm^24/pm^23"), "invalid unit"),
        ("quantity in a unit that does not parse", .quantity(value: 1, unit: "m/"), "invalid unit"),
        ("string of 4,097 bytes", .string(String(repeating: "x", count: SampleLimits.maximumMetadataStringBytes + 1)), "longer than"),
    ]

    /// Valid extremes: accepted on every carrier.
    static let valid: [(name: String, value: MetadataValue)] = [
        ("date at 1900-01-01", .date(SampleLimits.earliestPermittedSampleDate)),
        ("date at 2200-01-01", .date(SampleLimits.latestPermittedSampleDate)),
        ("number -1e308", .number(-1e308)),
        ("quantity 1e240 m", .quantity(value: 1e240, unit: "m")),
        ("quantity -1e240 m", .quantity(value: -1e240, unit: "m")),
        ("quantity -40 degC", .quantity(value: -40, unit: "degC")),
        ("string of 4,096 bytes", .string(String(repeating: "x", count: SampleLimits.maximumMetadataStringBytes))),
    ]

    /// Each carrier: a valid record holding `metadata` in one place, checked as healthd checks it.
    static let carriers: [(name: String, check: @Sendable ([String: MetadataValue]) throws(HKError) -> Void)] = [
        ("quantity sample", { metadata throws(HKError) in
            _ = try SampleValidator.canonicalized(sample(.stepCount, .quantity(10, unit: "count"), metadata: metadata)) }),
        ("category sample", { metadata throws(HKError) in
            _ = try SampleValidator.canonicalized(SampleRecord(
                uuid: UUID(), typeIdentifier: HKCategoryTypeIdentifier.mindfulSession.rawValue, startDate: start,
                endDate: start.addingTimeInterval(60), value: .category(0), metadata: metadata)) }),
        ("correlated sample", { metadata throws(HKError) in
            _ = try SampleValidator.canonicalized(SampleRecord(
                uuid: UUID(), typeIdentifier: HKCorrelationTypeIdentifier.bloodPressure.rawValue, startDate: start, endDate: start,
                value: .correlation([sample(.bloodPressureSystolic, .quantity(120, unit: "mmHg"), end: start, metadata: metadata),
                                     sample(.bloodPressureDiastolic, .quantity(80, unit: "mmHg"), end: start)]))) }),
        ("workout event", { metadata throws(HKError) in
            _ = try SampleValidator.canonicalized(workout(WorkoutValue(
                activityType: HKWorkoutActivityType.running.rawValue, duration: 600,
                events: [WorkoutEventRecord(type: HKWorkoutEventType.marker.rawValue, startDate: start.addingTimeInterval(5),
                                            endDate: start.addingTimeInterval(5), metadata: metadata)]))) }),
        ("workout activity", { metadata throws(HKError) in
            _ = try SampleValidator.canonicalized(workout(WorkoutValue(
                activityType: HKWorkoutActivityType.running.rawValue, duration: 600,
                activities: [WorkoutActivityRecord(uuid: UUID(), activityType: HKWorkoutActivityType.running.rawValue, locationType: 1,
                                                   swimmingLocationType: 0, startDate: start, endDate: start.addingTimeInterval(600),
                                                   metadata: metadata)]))) }),
        ("finished route", { metadata throws(HKError) in try RouteLocationValidator.checkFinish(metadata: metadata, device: nil) }),
    ]

    static func sample(_ type: HKQuantityTypeIdentifier, _ value: SampleRecord.Value, end: Date? = nil,
                       metadata: [String: MetadataValue] = [:]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type.rawValue, startDate: start, endDate: end ?? start.addingTimeInterval(60),
                     value: value, metadata: metadata)
    }

    static func workout(_ value: WorkoutValue) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: start.addingTimeInterval(600),
                     value: .workout(value))
    }

    @Test func everyJunkValueIsRefusedOnEveryCarrier() {
        for carrier in Self.carriers {
            for junk in Self.junk {
                do {
                    try carrier.check([Self.key: junk.value])
                    Issue.record("\(carrier.name), \(junk.name): accepted")
                } catch {
                    #expect(error.code == .errorInvalidArgument, "\(carrier.name), \(junk.name): \(error.code)")
                    #expect(error.message.contains(Self.key) && error.message.contains(junk.says),
                            "\(carrier.name), \(junk.name): \(error.message)")
                }
            }
        }
    }

    @Test func validExtremesAreAcceptedOnEveryCarrier() {
        for carrier in Self.carriers {
            for valid in Self.valid {
                do {
                    try carrier.check([Self.key: valid.value])
                } catch {
                    Issue.record("\(carrier.name), \(valid.name): refused: \(error.message)")
                }
            }
        }
    }

    /// A predefined date key gets the same window as a custom one.
    @Test func aPredefinedDateKeyHasTheSameWindow() {
        let far = MetadataValue.date(Date(microsecondsSince1970: .max))
        #expect(throws: HKError.self) {
            _ = try SampleValidator.canonicalized(Self.sample(.stepCount, .quantity(1, unit: "count"),
                                                               metadata: [HKMetadataKeyDateOfEarliestDataUsedForEstimate: far]))
        }
    }
}
