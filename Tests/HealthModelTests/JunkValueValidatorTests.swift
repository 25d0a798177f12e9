import Foundation
import Testing

@testable import HealthModel

/// The one validator (`SampleValidator`, shared by app saves, `healthctl import` and
/// `healthctl add`) against junk, one field varied at a time: each value is refused with
/// errorInvalidArgument and a message naming the field. The kinds apps cannot save (ECGs,
/// clinical records) and route locations (saved through the route builder's calls) are covered
/// here; the app-writable kinds also end to end (`EndToEndTests/JunkValueEndToEndTests`).
@Suite(.timeLimit(.minutes(10))) struct JunkValueValidatorTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let extremes: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308]

    static func refusal(_ record: SampleRecord) -> String? {
        do {
            _ = try SampleValidator.canonicalized(record)
            return nil
        } catch {
            return error.code == .errorInvalidArgument ? error.message : "wrong code \(error.code): \(error.message)"
        }
    }

    static func steps(device: DeviceRecord) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue, startDate: start,
                     endDate: start.addingTimeInterval(60), value: .quantity(1, unit: "count"), device: device)
    }

    static var deviceFields: [(String, WritableKeyPath<DeviceRecord, String?>)] {
        [("name", \.name), ("manufacturer", \.manufacturer), ("model", \.model), ("hardwareVersion", \.hardwareVersion),
         ("firmwareVersion", \.firmwareVersion), ("softwareVersion", \.softwareVersion),
         ("localIdentifier", \.localIdentifier), ("udiDeviceIdentifier", \.udiDeviceIdentifier)]
    }

    @Test func everyDeviceFieldIsBoundedInBytesNotCharacters() {
        let limit = SampleLimits.maximumDeviceStringBytes
        for (field, path) in Self.deviceFields {
            var atLimit = DeviceRecord()
            atLimit[keyPath: path] = String(repeating: "d", count: limit)
            #expect(Self.refusal(Self.steps(device: atLimit)) == nil, "\(field) at the bound")
            // One byte over, and one character of many bytes (combining marks).
            for text in [String(repeating: "d", count: limit + 1), "e" + String(repeating: "\u{301}", count: limit)] {
                var device = DeviceRecord()
                device[keyPath: path] = text
                let message = Self.refusal(Self.steps(device: device))
                #expect(message?.contains("device \(field)") == true, "\(field): \(String(describing: message))")
            }
        }
    }

    @Test func aDeviceOnACorrelatedSampleIsCheckedToo() {
        var device = DeviceRecord()
        device.name = String(repeating: "d", count: SampleLimits.maximumDeviceStringBytes + 1)
        func pressure(_ type: HKQuantityTypeIdentifier, device: DeviceRecord?) -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: type.rawValue, startDate: Self.start, endDate: Self.start,
                         value: .quantity(120, unit: "mmHg"), device: device)
        }
        let correlation = SampleRecord(
            uuid: UUID(), typeIdentifier: HKCorrelationTypeIdentifier.bloodPressure.rawValue, startDate: Self.start, endDate: Self.start,
            value: .correlation([pressure(.bloodPressureSystolic, device: device), pressure(.bloodPressureDiastolic, device: nil)]))
        #expect(Self.refusal(correlation)?.contains("device name") == true, "\(String(describing: Self.refusal(correlation)))")
    }

    /// A route is saved by the route builder's calls, not through `SampleValidator`: its finish
    /// checks the device by the same rule.
    @Test func aFinishedRoutesDeviceIsBoundedToo() {
        var device = DeviceRecord()
        device.model = String(repeating: "m", count: SampleLimits.maximumDeviceStringBytes + 1)
        #expect(throws: Never.self) { try RouteLocationValidator.checkFinish(metadata: [:], device: DeviceRecord(model: "Watch")) }
        do {
            try RouteLocationValidator.checkFinish(metadata: [:], device: device)
            Issue.record("a route's device model of \(SampleLimits.maximumDeviceStringBytes + 1) bytes was accepted")
        } catch {
            #expect(error.message.contains("device model"), "\(error.message)")
        }
    }

    static func prescription(_ value: VisionPrescriptionValue) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKVisionPrescriptionTypeIdentifier, startDate: start, endDate: start,
                     value: .visionPrescription(value))
    }

    @Test func aBrandIsBoundedInBytes() {
        let lens = LensSpecificationValue(sphere: -1)
        func contacts(_ brand: String) -> SampleRecord {
            Self.prescription(VisionPrescriptionValue(kind: VisionPrescriptionValue.contacts, hasLenses: true, expirationDate: nil,
                                                      rightEye: lens, brand: brand))
        }
        #expect(Self.refusal(contacts(String(repeating: "é", count: 256))) == nil)
        for brand in ["e" + String(repeating: "\u{301}", count: 600), String(repeating: "b", count: SampleLimits.maximumDeviceStringBytes + 1)] {
            #expect(Self.refusal(contacts(brand))?.contains("brand") == true, "\(brand.utf8.count) bytes")
        }
    }

    @Test func anExpirationDateLiesInThePermittedWindow() {
        func glasses(expiring date: Date) -> SampleRecord {
            Self.prescription(VisionPrescriptionValue(kind: VisionPrescriptionValue.glasses, hasLenses: false, expirationDate: date))
        }
        #expect(Self.refusal(glasses(expiring: SampleLimits.latestPermittedSampleDate)) == nil)
        for date in [SampleLimits.latestPermittedSampleDate.addingTimeInterval(1), Date(microsecondsSince1970: .max)] {
            #expect(Self.refusal(glasses(expiring: date))?.contains("expirationDate") == true, "\(date)")
        }
    }

    @Test func aWorkoutSumOfATypeThatCannotBeNegativeIsNotNegative() {
        func workout(distanceSum: Double, type: HKQuantityTypeIdentifier = .distanceWalkingRunning, unit: String = "m") -> SampleRecord {
            var value = WorkoutValue(activityType: HKWorkoutActivityType.running.rawValue, duration: 600)
            value.statistics = [WorkoutStatisticsRecord(quantityType: type.rawValue, startDate: Self.start,
                                                        endDate: Self.start.addingTimeInterval(600), sum: RecordedQuantity(distanceSum, unit: unit))]
            return SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: Self.start,
                                endDate: Self.start.addingTimeInterval(600), value: .workout(value))
        }
        #expect(Self.refusal(workout(distanceSum: 0)) == nil)
        for sum in [-1.0, -5_000, -0.000_001] {
            #expect(Self.refusal(workout(distanceSum: sum))?.contains("sum") == true, "\(sum)")
        }
        #expect(Self.refusal(workout(distanceSum: -3, type: .stepCount, unit: "count"))?.contains("sum") == true)
    }

    @Test func everyRouteFieldIsNamedWhenItIsNotFinite() {
        let fields: [(String, WritableKeyPath<RouteLocation, Double>)] = [
            ("latitude", \.latitude), ("longitude", \.longitude), ("altitude", \.altitude),
            ("horizontalAccuracy", \.horizontalAccuracy), ("verticalAccuracy", \.verticalAccuracy), ("course", \.course), ("speed", \.speed),
        ]
        for (field, path) in fields {
            for value in [Double.nan, .infinity, -.infinity] {
                var location = RouteLocation(timestamp: Self.start, latitude: 47, longitude: 8)
                location[keyPath: path] = value
                do {
                    try RouteLocationValidator.check([location])
                    Issue.record("\(field) = \(value) accepted")
                } catch {
                    #expect(error.message.contains(field), "\(field) = \(value): \(error.message)")
                }
            }
        }
    }

    @Test func electrocardiogramExtremesAreRefusedNamingTheField() {
        func ecg(rate: Double? = 70, frequency: Double? = 512, voltages: [Double] = [0.001]) -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: HKElectrocardiogramTypeIdentifier, startDate: Self.start,
                         endDate: Self.start.addingTimeInterval(30),
                         value: .electrocardiogram(ElectrocardiogramValue(classification: 1, symptomsStatus: 1, averageHeartRate: rate,
                                                                          samplingFrequency: frequency, voltageCount: voltages.count,
                                                                          voltages: voltages)))
        }
        #expect(Self.refusal(ecg()) == nil)
        for value in Self.extremes + [-1] {
            #expect(Self.refusal(ecg(rate: value))?.contains("average heart rate") == true, "rate \(value)")
        }
        for value in Self.extremes + [-1, 0] {
            #expect(Self.refusal(ecg(frequency: value))?.contains("sampling frequency") == true, "frequency \(value)")
        }
        for value in Self.extremes + [1.000_001, -1.000_001] {
            #expect(Self.refusal(ecg(voltages: [0, value]))?.contains("voltage measurement 2") == true, "voltage \(value)")
        }
    }

    @Test func clinicalRecordFieldsAreBoundedAndTheirJSONMustMatch() {
        func record(displayName: String = "Cholesterol", identifier: String = "obs-1", data: Data? = nil,
                    sourceURL: String? = nil, fhirVersion: String = "4.0.1") -> SampleRecord {
            let json = data ?? Data(#"{"resourceType":"Observation","id":"\#(identifier)"}"#.utf8)
            return SampleRecord(uuid: UUID(), typeIdentifier: HKClinicalTypeIdentifier.labResultRecord.rawValue, startDate: Self.start,
                                endDate: Self.start,
                                value: .clinicalRecord(ClinicalRecordValue(displayName: displayName, resourceType: "Observation",
                                                                           identifier: identifier, data: json, sourceURL: sourceURL,
                                                                           fhirVersion: fhirVersion)))
        }
        #expect(Self.refusal(record()) == nil)
        let nested = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        let cases: [(SampleRecord, String)] = [
            (record(displayName: ""), "displayName"),
            (record(displayName: String(repeating: "n", count: FHIRResourceRules.maxDisplayNameBytes + 1)), "displayName"),
            (record(sourceURL: String(repeating: "u", count: FHIRResourceRules.maxSourceURLBytes + 1)), "sourceURL"),
            (record(fhirVersion: "4.0.1\u{0}"), "fhirVersion"),
            (record(fhirVersion: "99999999999999999999.0.1"), "fhirVersion"),
            (record(data: Data([0xFF, 0xFE])), "FHIR resource"),
            (record(data: nested), "FHIR resource"),
            (record(data: Data(repeating: 0x20, count: FHIRResourceRules.maxResourceBytes + 1)), "FHIR resource"),
            (record(data: Data(#"{"resourceType":"Observation","id":"other"}"#.utf8)), "id"),
        ]
        for (junk, field) in cases {
            #expect(Self.refusal(junk)?.contains(field) == true, "\(field): \(String(describing: Self.refusal(junk)))")
        }
    }
}

/// `TextBound`: every bound stated in characters also bounds bytes, so a text of one character
/// and megabytes of combining marks is refused wherever such a bound applies.
@Suite(.timeLimit(.minutes(10))) struct TextBoundTests {
    static let manyMarks = "e" + String(repeating: "\u{301}", count: 5_000)

    @Test func aBoundInCharactersAlsoBoundsBytes() {
        #expect(TextBound.fits(String(repeating: "é", count: 10), characters: 10))
        #expect(TextBound.fits(String(repeating: "𝄞", count: 10), characters: 10))  // four bytes each
        #expect(!TextBound.fits(String(repeating: "a", count: 11), characters: 10))
        #expect(Self.manyMarks.count == 1)
        #expect(!TextBound.fits(Self.manyMarks, characters: 10))
    }

    @Test func anAppManifestsTextsAreBoundedInBytesToo() {
        func manifest(displayName: String = "App", version: String = "1.0", read: String? = nil) -> AppManifest {
            AppManifest(id: "org.test.app", displayName: displayName, executable: "/usr/bin/true", version: version,
                        readUsageDescription: read)
        }
        #expect(manifest().problems.isEmpty)
        #expect(manifest(displayName: Self.manyMarks).problems.contains { $0.hasPrefix("displayName") })
        #expect(manifest(version: Self.manyMarks).problems.contains { $0.hasPrefix("version") })
        #expect(manifest(read: Self.manyMarks).problems.contains { $0.hasPrefix(AppManifest.readUsageKey) })
    }
}
