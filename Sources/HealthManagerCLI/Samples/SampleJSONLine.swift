import Foundation
import HealthModel

/// The JSON shape of one sample in `healthctl samples --json`. Dates are ISO 8601 in UTC with
/// milliseconds; a quantity has "value" and "unit", a category sample an integer "value".
struct SampleJSONLine: Encodable {
    struct Source: Encodable {
        let bundleIdentifier: String
        let name: String
        let version: String?
    }

    struct Device: Encodable {
        let name, manufacturer, model, hardwareVersion, firmwareVersion, softwareVersion: String?
        let localIdentifier, udiDeviceIdentifier: String?
    }

    /// Metadata values keep their kind: strings, numbers, booleans, ISO dates, {value, unit}.
    struct Metadata: Encodable {
        struct Quantity: Encodable {
            let value: Double
            let unit: String
        }

        let value: MetadataValue

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch value {
            case let .string(text): try container.encode(text)
            case let .number(number): try container.encode(number)
            case let .bool(flag): try container.encode(flag)
            case let .date(date): try container.encode(SampleJSONLine.timestamp(date))
            case let .quantity(amount, unit): try container.encode(Quantity(value: amount, unit: unit))
            }
        }
    }

    /// A workout's activity (HKWorkoutActivityType raw value), totals and events.
    struct Workout: Encodable {
        struct Total: Encodable {
            let value: Double
            let unit: String
        }

        struct Event: Encodable {
            let type: Int
            let start: String
            let end: String
        }

        let activityType: UInt
        let duration: Double
        let totalDistance: Total?
        let totalEnergyBurned: Total?
        let events: [Event]?
    }

    /// A state of mind's kind, labels and associations by HealthKit's Swift case names (the
    /// valence is "value").
    struct StateOfMind: Encodable {
        let kind: String
        let valenceClassification: String
        let labels: [String]
        let associations: [String]
    }

    /// An `HKAudiogramSensitivityPoint`: hertz, and each ear's test in dBHL by Apple's side names.
    struct SensitivityPoint: Encodable {
        struct Test: Encodable {
            let side: String
            let sensitivity: Double
            let masked: Bool
            let clampingLowerBound, clampingUpperBound: Double?
        }

        let frequency: Double
        let tests: [Test]
    }

    /// What `HKCDADocument` shows; nil fields when the bytes do not read as a CDA document.
    struct Document: Encodable {
        let title, patientName, authorName, custodianName: String?
    }

    /// A clinical record's name and FHIR resource; `resource` is the JSON text exactly as stored
    /// (a string, so its bytes are not re-encoded). `value` is the resource's size in bytes.
    struct ClinicalRecord: Encodable {
        let displayName: String
        let resourceType: String
        let identifier: String
        let sourceURL: String?
        let fhirVersion: String
        let resource: String
    }

    let uuid: String
    let type: String
    let start: String
    let end: String
    let value: Double
    let unit: String?
    let source: Source?
    let device: Device?
    let metadata: [String: Metadata]?
    let workout: Workout?
    let stateOfMind: StateOfMind?
    /// An audiogram's points (`value` is their count).
    let sensitivityPoints: [SensitivityPoint]?
    /// A CDA document's header fields (`HKCDADocument`); "value" is its size in bytes.
    let document: Document?
    let clinicalRecord: ClinicalRecord?
    let visionPrescription: VisionPrescriptionJSON?
    /// A correlation's samples, each in this same shape.
    let objects: [SampleJSONLine]?
    /// A quantity series' summary (HKQuantitySeriesSampleBuilder); `value` is its sum or average.
    let series: Series?

    /// In `unit`, like `value`.
    struct Series: Encodable {
        let count: Int
        let minimum, maximum, mostRecent: Double
        let mostRecentStart, mostRecentEnd: String
    }

    init(_ sample: SampleRecord, formatter: SampleFormatter) {
        uuid = sample.uuid.uuidString.lowercased()
        type = sample.typeIdentifier
        start = Self.timestamp(sample.startDate)
        end = Self.timestamp(sample.endDate)
        switch sample.value {
        case let .quantity(amount, unit):
            (value, self.unit) = formatter.convertedQuantity(amount, unit)
        case let .category(raw):
            (value, unit) = (Double(raw), nil)
        case let .workout(workout):
            (value, unit) = (workout.duration, "s")
        case let .workoutRoute(count):
            (value, unit) = (Double(count), nil)
        case let .correlation(objects):
            (value, unit) = (Double(objects.count), "samples")
        case let .heartbeatSeries(series):
            (value, unit) = (Double(series.count), "beats")
        case let .electrocardiogram(ecg):
            (value, unit) = (Double(ecg.voltageCount), "voltages")
        case let .stateOfMind(stateOfMind):
            (value, unit) = (stateOfMind.valence, "valence")
        case let .scoredAssessment(assessment):
            (value, unit) = (Double(AssessmentText.score(assessment, typeIdentifier: sample.typeIdentifier) ?? 0), "score")
        case let .audiogram(audiogram):
            (value, unit) = (Double(audiogram.points.count), "points")
        case let .document(document):
            (value, unit) = (Double(document.data.count), "bytes")
        case let .clinicalRecord(record):
            (value, unit) = (Double(record.data.count), "bytes")
        case .visionPrescription:
            // No one number; the prescription itself is `visionPrescription` below.
            (value, unit) = (0, nil)
        case let .medicationDoseEvent(dose):
            (value, unit) = (dose.doseQuantity ?? 0, dose.unit)
        case .userAnnotatedMedication:
            (value, unit) = (0, nil)
        }
        source = sample.source.map { Source(bundleIdentifier: $0.bundleIdentifier, name: $0.name, version: $0.version) }
        device = sample.device.map {
            Device(name: $0.name, manufacturer: $0.manufacturer, model: $0.model, hardwareVersion: $0.hardwareVersion,
                   firmwareVersion: $0.firmwareVersion, softwareVersion: $0.softwareVersion,
                   localIdentifier: $0.localIdentifier, udiDeviceIdentifier: $0.udiDeviceIdentifier)
        }
        metadata = sample.metadata.isEmpty ? nil : sample.metadata.mapValues(Metadata.init(value:))
        if let summary = sample.quantitySeries, case let .quantity(_, storedUnit) = sample.value {
            func converted(_ amount: Double) -> Double { formatter.convertedQuantity(amount, storedUnit).0 }
            series = Series(count: summary.count, minimum: converted(summary.minimum), maximum: converted(summary.maximum),
                            mostRecent: converted(summary.mostRecent), mostRecentStart: Self.timestamp(summary.mostRecentStart),
                            mostRecentEnd: Self.timestamp(summary.mostRecentEnd))
        } else {
            series = nil
        }
        if case let .stateOfMind(value) = sample.value {
            stateOfMind = StateOfMind(kind: value.kind == 2 ? "dailyMood" : "momentaryEmotion",
                                      valenceClassification: StateOfMindText.classification(value.valence),
                                      labels: value.labels.map(StateOfMindText.label),
                                      associations: value.associations.map(StateOfMindText.association))
        } else {
            stateOfMind = nil
        }
        if case let .audiogram(value) = sample.value {
            sensitivityPoints = value.points.map { point in
                SensitivityPoint(frequency: point.frequency, tests: point.tests.map {
                    SensitivityPoint.Test(side: AudiogramText.side($0.side), sensitivity: $0.sensitivity, masked: $0.masked,
                                          clampingLowerBound: $0.clampingLowerBound, clampingUpperBound: $0.clampingUpperBound)
                })
            }
        } else {
            sensitivityPoints = nil
        }
        if case let .document(value) = sample.value {
            let fields = DocumentText.fields(value)
            document = Document(title: fields?.title, patientName: fields?.patientName,
                                authorName: fields?.authorName, custodianName: fields?.custodianName)
        } else {
            document = nil
        }
        if case let .clinicalRecord(record) = sample.value {
            // Stored only after FHIRResourceRules found it UTF-8, so decoding loses nothing.
            clinicalRecord = ClinicalRecord(displayName: record.displayName, resourceType: record.resourceType,
                                            identifier: record.identifier, sourceURL: record.sourceURL,
                                            fhirVersion: record.fhirVersion, resource: String(decoding: record.data, as: UTF8.self))
        } else {
            clinicalRecord = nil
        }
        if case let .visionPrescription(value) = sample.value {
            visionPrescription = VisionPrescriptionJSON(value)
        } else {
            visionPrescription = nil
        }
        switch sample.value {
        case let .workout(value):
            workout = Workout(
                activityType: value.activityType, duration: value.duration,
                totalDistance: value.totalDistance.map { Workout.Total(value: $0.value, unit: $0.unit) },
                totalEnergyBurned: value.totalEnergyBurned.map { Workout.Total(value: $0.value, unit: $0.unit) },
                events: value.events.isEmpty ? nil : value.events.map {
                    Workout.Event(type: $0.type, start: Self.timestamp($0.startDate), end: Self.timestamp($0.endDate))
                })
            objects = nil
        case let .correlation(members):
            workout = nil
            // Members are shown in the stored unit: the display unit chosen is the correlation's.
            objects = members.map { SampleJSONLine($0, formatter: SampleFormatter(displayUnit: nil, timeZone: formatter.timeZone)) }
        default:
            workout = nil
            objects = nil
        }
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: utc))
    }

    /// UTC always exists; `.gmt` is the same zone without a force unwrap.
    private static let utc = TimeZone.gmt
}
