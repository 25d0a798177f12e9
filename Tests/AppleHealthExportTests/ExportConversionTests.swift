@testable import AppleHealthExport
import Foundation
import HealthModel
import Testing

/// Export items → samples: the spellings Apple's export uses, turned into the model's values.
@Suite(.timeLimit(.minutes(10))) struct ExportConversionTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)

    func header(_ type: String, seconds: TimeInterval = 60, metadata: [ExportMetadataEntry] = [],
                device: String? = nil) -> ExportSampleHeader {
        ExportSampleHeader(type: type, source: ExportSource(name: "Watch", version: "10.1", device: device), creationDate: nil,
                           startDate: start, endDate: start.addingTimeInterval(seconds), metadata: metadata, line: 1)
    }

    @Test func categoryValuesAreReadByTheirObjectiveCNames() throws {
        let sleep = ExportRecord(header: header("HKCategoryTypeIdentifierSleepAnalysis"), unit: nil,
                                 value: "HKCategoryValueSleepAnalysisAsleepREM", beats: [])
        #expect(try ExportConversion.sample(sleep).record.value == .category(HKCategoryValueSleepAnalysis.asleepREM.rawValue))
        let unknown = ExportRecord(header: header("HKCategoryTypeIdentifierSleepAnalysis"), unit: nil, value: "Dozing", beats: [])
        #expect(throws: ImportRefusal.self) { _ = try ExportConversion.sample(unknown) }
    }

    @Test func middleDotUnitsBecomeTheGrammarsProducts() throws {
        #expect(ExportConversion.normalizedUnit("mL/min·kg") == "mL/(min*kg)")
        #expect(ExportConversion.normalizedUnit("count/min") == "count/min")
        let vo2 = try HKUnit.parse(ExportConversion.normalizedUnit("mL/min·kg"))
        #expect(HKQuantityType(.vo2Max).is(compatibleWith: vo2))
    }

    @Test func metadataTakesEachPredefinedKeysKindAndKeepsCustomKeysAsText() {
        let converted = ExportConversion.metadata([
            ExportMetadataEntry(key: "HKWasUserEntered", value: "1"),
            ExportMetadataEntry(key: "HKWeatherTemperature", value: "56 degF"),
            ExportMetadataEntry(key: "HKTimeZone", value: "America/Los_Angeles"),
            ExportMetadataEntry(key: "Withings User Identifier", value: "12345"),
            ExportMetadataEntry(key: "HKMadeUpKey", value: "x"),         // reserved prefix, not HealthKit's: left out
            ExportMetadataEntry(key: "HKWasUserEntered2", value: "1"),
        ], type: "HKQuantityTypeIdentifierStepCount")
        #expect(converted == [
            "HKWasUserEntered": .bool(true),
            "HKWeatherTemperature": .quantity(value: 56, unit: "degF"),
            "HKTimeZone": .string("America/Los_Angeles"),
            "Withings User Identifier": .string("12345"),
        ])
    }

    @Test func devicesAreParsedFromTheirDescriptionCommasIncluded() {
        let device = ExportDevice.parse("<<HKDevice: 0x282a45810>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch2,4, software:4.3.1>")
        #expect(device == DeviceRecord(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: "Watch2,4",
                                       softwareVersion: "4.3.1"))
        #expect(ExportDevice.parse("iPhone") == nil)
    }

    /// The same record gets the same sync identifier in every run; any change gives another.
    @Test func syncIdentitiesAreStableAndTellRecordsApart() throws {
        func sync(_ value: String, source: String = "Watch") throws -> String? {
            var record = ExportRecord(header: header("HKQuantityTypeIdentifierStepCount"), unit: "count", value: value, beats: [])
            record.header.source.name = source
            guard case let .string(identifier)? = try ExportConversion.sample(record).record.metadata[HKMetadataKeySyncIdentifier] else { return nil }
            return identifier
        }
        let first = try #require(try sync("12"))
        #expect(first.hasPrefix(ExportConversion.syncPrefix))
        #expect(try sync("12") == first)
        #expect(try sync("13") != first)
        #expect(try sync("12", source: "Phone") != first)
        #expect(StableHash.hex("a").prefix(16) == "af63dc4c8601ec8c")  // FNV-1a 64 of "a" (the published test vector), first lane
    }

    /// Only an identifier the import derived itself (a digest of the element's type, start and the
    /// rest) is marked dated (`ImportedSample.datedIdentity`, issue 16): healthd then looks it up by
    /// type and start alone. One the export carried (an app's own identifier, or this store's after
    /// an export) says nothing about other objects' dates, and a correlation's identity is not a
    /// sync identifier at all.
    @Test func onlyTheImportsOwnIdentifiersAreDated() throws {
        let plain = ExportRecord(header: header("HKQuantityTypeIdentifierStepCount"), unit: "count", value: "12", beats: [])
        #expect(try ExportConversion.sample(plain).datedIdentity)
        let carried = ExportRecord(header: header("HKQuantityTypeIdentifierStepCount", metadata: [
            ExportMetadataEntry(key: HKMetadataKeySyncIdentifier, value: "app-7"), ExportMetadataEntry(key: HKMetadataKeySyncVersion, value: "3"),
        ]), unit: "count", value: "12", beats: [])
        let carriedSample = try ExportConversion.sample(carried)
        #expect(carriedSample.record.metadata[HKMetadataKeySyncIdentifier] == .string("app-7"))
        #expect(!carriedSample.datedIdentity)
        let workout = ExportWorkout(header: header("HKWorkoutActivityTypeRunning", seconds: 1800), activityType: "HKWorkoutActivityTypeRunning",
                                    duration: nil, totalDistance: nil, totalEnergyBurned: nil, events: [], statistics: [], routes: [])
        #expect(try ExportConversion.sample(workout).datedIdentity)
        let correlation = ExportCorrelation(header: header("HKCorrelationTypeIdentifierBloodPressure"), records: [
            ExportRecord(header: header("HKQuantityTypeIdentifierBloodPressureSystolic"), unit: "mmHg", value: "120", beats: []),
            ExportRecord(header: header("HKQuantityTypeIdentifierBloodPressureDiastolic"), unit: "mmHg", value: "80", beats: []),
        ])
        #expect(!(try ExportConversion.sample(correlation).datedIdentity))
    }

    /// Exports round dates to whole seconds but keep durations exact.
    @Test func aWorkoutDurationRoundedPastItsDatesIsClampedAndOtherwiseKept() throws {
        func workout(minutes: String) -> ExportWorkout {
            ExportWorkout(header: header("HKWorkoutTypeIdentifier", seconds: 1904), activityType: "HKWorkoutActivityTypeOther",
                          duration: ExportMeasure(value: minutes, unit: "min"), totalDistance: ExportMeasure(value: "0", unit: "km"),
                          totalEnergyBurned: ExportMeasure(value: "139.3", unit: "kcal"), events: [], statistics: [], routes: [])
        }
        guard case let .workout(clamped) = try ExportConversion.sample(workout(minutes: "31.7368")).record.value,
              case let .workout(kept) = try ExportConversion.sample(workout(minutes: "30")).record.value else {
            Issue.record("not workouts")
            return
        }
        #expect(clamped.duration == 1904)
        #expect(kept.duration == 1800)
        #expect(kept.activityType == HKWorkoutActivityType.other.rawValue)
        #expect(kept.totalEnergyBurned == RecordedQuantity(139.3, unit: "kcal"))
    }
}

/// A record without a unit (other tools' files) is read in the unit the Health app shows for its
/// type, not the canonical one: 150 with no unit is 150 bpm for heart rate.
@Suite(.timeLimit(.minutes(10))) struct UnitlessRecordTests {
    @Test func aUnitlessHeartRateIsBeatsPerMinute() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let record = ExportRecord(header: ExportSampleHeader(type: "HKQuantityTypeIdentifierHeartRate",
                                                             source: ExportSource(name: nil, version: nil, device: nil),
                                                             creationDate: nil, startDate: start, endDate: start, metadata: [], line: 1),
                                  unit: nil, value: "150", beats: [])
        #expect(try ExportConversion.sample(record).record.value == .quantity(150, unit: "count/min"))
    }
}
