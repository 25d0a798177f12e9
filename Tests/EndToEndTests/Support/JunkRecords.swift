import Foundation
import HealthModel

/// Extremes for every app-writable sample kind added after the first wave, one field varied at a
/// time from a valid record of its kind (`JunkValueEndToEndTests`). A case names the field the
/// refusal must name, or none when the value is valid and must be stored exactly.
enum JunkRecords {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        /// Text the refusal's message must contain (the field); nil: the record is valid.
        let field: String?
        let record: SampleRecord

        var description: String { name }
    }

    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let gad7 = HKScoredAssessmentTypeIdentifier.GAD7.rawValue
    static let cda = HKDocumentTypeIdentifier.CDA.rawValue
    /// The types the saving app needs share permission for (a workout's statistics of distance
    /// need distance's: `SampleRecord.forEachShareTypeIdentifier`).
    static let types = [steps, HKVisionPrescriptionTypeIdentifier, HKWorkoutTypeIdentifier, HKDataTypeIdentifierStateOfMind,
                        HKDataTypeIdentifierAudiogram, gad7, cda, HKDataTypeIdentifierHeartbeatSeries,
                        HKQuantityTypeIdentifier.distanceWalkingRunning.rawValue]

    /// Strings past every bound that counts bytes, and one that is a single character of many
    /// bytes (combining marks), which a bound counting characters lets through.
    static let longASCII = String(repeating: "x", count: 5_000)
    static let oneCharacterOfManyBytes = "e" + String(repeating: "\u{301}", count: 3_000)
    /// A date the wire can carry (microseconds in an Int64) far outside the permitted window.
    static let farFuture = Date(microsecondsSince1970: .max)
    static let farPast = Date(microsecondsSince1970: .min)

    static func record(_ type: String, _ value: SampleRecord.Value, end: Date? = nil, metadata: [String: MetadataValue] = [:],
                       device: DeviceRecord? = nil) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: start, endDate: end ?? start, value: value,
                     metadata: metadata, device: device)
    }

    // MARK: Valid records, each varied below

    static func stepsSample(device: DeviceRecord? = nil, metadata: [String: MetadataValue] = [:]) -> SampleRecord {
        record(steps, .quantity(10, unit: "count"), end: start.addingTimeInterval(60), metadata: metadata, device: device)
    }

    static func glasses(_ lens: LensSpecificationValue = LensSpecificationValue(sphere: -2), expiration: Date? = nil) -> SampleRecord {
        record(HKVisionPrescriptionTypeIdentifier, .visionPrescription(VisionPrescriptionValue(
            kind: VisionPrescriptionValue.glasses, hasLenses: true, expirationDate: expiration, rightEye: lens)))
    }

    static func contacts(brand: String, _ lens: LensSpecificationValue = LensSpecificationValue(sphere: -2)) -> SampleRecord {
        record(HKVisionPrescriptionTypeIdentifier, .visionPrescription(VisionPrescriptionValue(
            kind: VisionPrescriptionValue.contacts, hasLenses: true, expirationDate: nil, rightEye: lens, brand: brand)))
    }

    static func mood(_ valence: Double, labels: [Int] = [], associations: [Int] = [], end: Date? = nil) -> SampleRecord {
        record(HKDataTypeIdentifierStateOfMind, .stateOfMind(StateOfMindValue(kind: 1, valence: valence, labels: labels,
                                                                             associations: associations)), end: end)
    }

    static func audiogram(frequency: Double = 1_000, sensitivity: Double = 20, lower: Double? = nil, upper: Double? = nil,
                          points: Int = 1) -> SampleRecord {
        let test = AudiogramValue.Test(sensitivity: sensitivity, side: 0, clampingLowerBound: lower, clampingUpperBound: upper)
        let list = (0 ..< points).map { AudiogramValue.Point(frequency: frequency + Double($0), tests: [test]) }
        return record(HKDataTypeIdentifierAudiogram, .audiogram(AudiogramValue(points: list)))
    }

    static func assessment(_ answers: [Int]) -> SampleRecord {
        record(gad7, .scoredAssessment(ScoredAssessmentValue(answers: answers)))
    }

    static func document(_ bytes: Int) -> SampleRecord {
        record(cda, .document(DocumentValue(data: Data(repeating: 0x3C, count: bytes))))
    }

    static func heartbeats(_ times: [Double]) -> SampleRecord {
        record(HKDataTypeIdentifierHeartbeatSeries,
               .heartbeatSeries(HeartbeatSeriesValue(beats: times.map { Heartbeat(timeSinceSeriesStart: $0, precededByGap: false) })),
               end: start.addingTimeInterval(60))
    }

    static func workout(duration: TimeInterval = 600, energy: RecordedQuantity? = nil, events: [WorkoutEventRecord] = [],
                        statistics: [WorkoutStatisticsRecord] = []) -> SampleRecord {
        var value = WorkoutValue(activityType: HKWorkoutActivityType.running.rawValue, duration: duration,
                                 totalEnergyBurned: energy, events: events)
        value.statistics = statistics
        return record(HKWorkoutTypeIdentifier, .workout(value), end: start.addingTimeInterval(600))
    }

    static func distance(sum: Double) -> WorkoutStatisticsRecord {
        WorkoutStatisticsRecord(quantityType: HKQuantityTypeIdentifier.distanceWalkingRunning.rawValue, startDate: start,
                                endDate: start.addingTimeInterval(600), sum: RecordedQuantity(sum, unit: "m"))
    }

    // MARK: The table

    /// Refused, naming the field. The first group was junk stored before this suite; the rest
    /// guard rules that held.
    static let refused: [Case] = deviceCases + [
        Case(name: "contacts brand of one character and 6,001 bytes", field: "brand", record: contacts(brand: oneCharacterOfManyBytes)),
        Case(name: "contacts brand of 5,000 bytes", field: "brand", record: contacts(brand: longASCII)),
        Case(name: "prescription expiring in the year 294,000", field: "expirationDate", record: glasses(expiration: farFuture)),
        Case(name: "negative distance sum in a workout's statistics", field: "sum",
             record: workout(statistics: [distance(sum: -5_000)])),
        // Session 12: metadata dates had no window (the year 294,000 was stored), and a metadata
        // quantity finite as written could be infinite in any other unit.
        Case(name: "metadata date in the year 294,000", field: "org.test.d", record: stepsSample(metadata: ["org.test.d": .date(farFuture)])),
        Case(name: "metadata date before 1900", field: "org.test.d", record: stepsSample(metadata: ["org.test.d": .date(farPast)])),
        Case(name: "predefined metadata date key in the year 294,000", field: HKMetadataKeyDateOfEarliestDataUsedForEstimate,
             record: stepsSample(metadata: [HKMetadataKeyDateOfEarliestDataUsedForEstimate: .date(farFuture)])),
        Case(name: "metadata date on a workout event", field: "workout event 1",
             record: workout(events: [WorkoutEventRecord(type: HKWorkoutEventType.marker.rawValue, startDate: start.addingTimeInterval(10),
                                                         endDate: start.addingTimeInterval(10), metadata: ["org.test.d": .date(farFuture)])])),
        Case(name: "metadata quantity 1e308 km (infinite in metres)", field: "org.test.q",
             record: stepsSample(metadata: ["org.test.q": .quantity(value: 1e308, unit: "km")])),
        Case(name: "metadata quantity 1e308 dBASPL (infinite in pascals)", field: "org.test.q",
             record: stepsSample(metadata: ["org.test.q": .quantity(value: 1e308, unit: "dBASPL")])),
        // Session 16: junk once computed. A quantity finite in metres is infinite in centimetres,
        // and a unit of 10^-360 of a count let a negative step count through (its range did not
        // convert to the unit, so only the general ceiling applied).
        Case(name: "metadata quantity -1e308 m (infinite in centimetres)", field: "org.test.q",
             record: stepsSample(metadata: ["org.test.q": .quantity(value: -1e308, unit: "m")])),
        Case(name: "steps -1e300 in fm^24/m^24 (-1e-60 count)", field: "10^±60",
             record: record(steps, .quantity(-1e300, unit: "fm^24/m^24"))),
        Case(name: "metadata quantity in Tm^24/pm^23 (10^564 m)", field: "org.test.q",
             record: stepsSample(metadata: ["org.test.q": .quantity(value: 1, unit: "Tm^24/pm^23")])),
    ] + guardedCases

    static let deviceCases: [Case] = {
        let fields: [(String, WritableKeyPath<DeviceRecord, String?>)] = [
            ("name", \.name), ("manufacturer", \.manufacturer), ("model", \.model), ("hardwareVersion", \.hardwareVersion),
            ("firmwareVersion", \.firmwareVersion), ("softwareVersion", \.softwareVersion),
            ("localIdentifier", \.localIdentifier), ("udiDeviceIdentifier", \.udiDeviceIdentifier),
        ]
        return fields.map { field, path in
            var device = DeviceRecord()
            device[keyPath: path] = longASCII
            return Case(name: "device \(field) of 5,000 bytes", field: "device \(field)", record: stepsSample(device: device))
        }
    }()

    static let guardedCases: [Case] = [
        Case(name: "start before 1900", field: "start and end dates", record: record(steps, .quantity(1, unit: "count"),
                                                                                       end: start).moved(start: farPast)),
        Case(name: "end before start", field: "start date is after end date",
             record: record(steps, .quantity(1, unit: "count")).moved(start: start.addingTimeInterval(60))),
        Case(name: "metadata number NaN", field: "org.test.n", record: stepsSample(metadata: ["org.test.n": .number(.nan)])),
        Case(name: "metadata number +inf", field: "org.test.n", record: stepsSample(metadata: ["org.test.n": .number(.infinity)])),
        Case(name: "metadata string of 5,000 bytes", field: "org.test.s", record: stepsSample(metadata: ["org.test.s": .string(longASCII)])),
        Case(name: "steps NaN", field: "StepCount", record: record(steps, .quantity(.nan, unit: "count"))),
        Case(name: "steps 1e308", field: "StepCount", record: record(steps, .quantity(1e308, unit: "count"))),
        Case(name: "steps negative", field: "StepCount", record: record(steps, .quantity(-1, unit: "count"))),
        Case(name: "sphere NaN", field: "sphere", record: glasses(LensSpecificationValue(sphere: .nan))),
        Case(name: "sphere 1e308", field: "sphere", record: glasses(LensSpecificationValue(sphere: 1e308))),
        Case(name: "cylinder -inf", field: "cylinder", record: glasses(LensSpecificationValue(sphere: 0, cylinder: -.infinity))),
        Case(name: "axis 181", field: "axis", record: glasses(LensSpecificationValue(sphere: 0, axis: 181))),
        Case(name: "addPower negative", field: "addPower", record: glasses(LensSpecificationValue(sphere: 0, addPower: -0.25))),
        Case(name: "vertexDistance NaN", field: "vertexDistance", record: glasses(LensSpecificationValue(sphere: 0, vertexDistance: .nan))),
        Case(name: "prism amount inf", field: "prism amount",
             record: glasses(LensSpecificationValue(sphere: 0, prism: VisionPrismValue(amount: .infinity, angle: 0, eye: 1)))),
        Case(name: "prism angle 361", field: "prism angle",
             record: glasses(LensSpecificationValue(sphere: 0, prism: VisionPrismValue(amount: 1, angle: 361, eye: 1)))),
        Case(name: "prism eye 3", field: "prism eye",
             record: glasses(LensSpecificationValue(sphere: 0, prism: VisionPrismValue(amount: 1, angle: 0, eye: 3)))),
        Case(name: "farPupillaryDistance 1e308", field: "farPupillaryDistance",
             record: glasses(LensSpecificationValue(sphere: 0, farPupillaryDistance: 1e308))),
        Case(name: "baseCurve NaN", field: "baseCurve", record: contacts(brand: "b", LensSpecificationValue(sphere: 0, baseCurve: .nan))),
        Case(name: "diameter -1", field: "diameter", record: contacts(brand: "b", LensSpecificationValue(sphere: 0, diameter: -1))),
        Case(name: "expiration before the date issued", field: "expirationDate", record: glasses(expiration: start.addingTimeInterval(-1))),
        Case(name: "valence NaN", field: "valence", record: mood(.nan)),
        Case(name: "valence +inf", field: "valence", record: mood(.infinity)),
        Case(name: "valence just above 1", field: "valence", record: mood(1.000_000_1)),
        Case(name: "label 0", field: "label", record: mood(0, labels: [0])),
        Case(name: "label twice", field: "label", record: mood(0, labels: [1, 1])),
        Case(name: "association -1", field: "association", record: mood(0, associations: [-1])),
        Case(name: "state of mind spanning a minute", field: "start and end", record: mood(0, end: start.addingTimeInterval(60))),
        Case(name: "audiogram frequency NaN", field: "frequency", record: audiogram(frequency: .nan)),
        Case(name: "audiogram frequency -1", field: "frequency", record: audiogram(frequency: -1)),
        Case(name: "audiogram frequency 1e308", field: "frequency", record: audiogram(frequency: 1e308)),
        Case(name: "audiogram sensitivity +inf", field: "sensitivity", record: audiogram(sensitivity: .infinity)),
        Case(name: "audiogram sensitivity 161", field: "sensitivity", record: audiogram(sensitivity: 161)),
        Case(name: "audiogram clamping NaN", field: "clamping range", record: audiogram(lower: .nan)),
        Case(name: "audiogram clamping lower above upper", field: "clamping range", record: audiogram(lower: 10, upper: 0)),
        Case(name: "audiogram of 31 points", field: "sensitivity points", record: audiogram(points: 31)),
        Case(name: "GAD-7 with 6 answers", field: "GAD-7", record: assessment([0, 0, 0, 0, 0, 0])),
        Case(name: "GAD-7 answer 4", field: "question 7", record: assessment([0, 0, 0, 0, 0, 0, 4])),
        Case(name: "GAD-7 answer -1", field: "question 1", record: assessment([-1, 0, 0, 0, 0, 0, 0])),
        Case(name: "GAD-7 answer Int.max", field: "question 2", record: assessment([0, .max, 0, 0, 0, 0, 0])),
        Case(name: "empty CDA document", field: "document", record: document(0)),
        Case(name: "CDA document of 1 MiB + 1", field: "document", record: document((1 << 20) + 1)),
        Case(name: "heartbeat NaN", field: "heartbeat 1", record: heartbeats([.nan])),
        Case(name: "heartbeat negative", field: "heartbeat 1", record: heartbeats([-1])),
        Case(name: "heartbeats out of order", field: "heartbeat 2", record: heartbeats([2, 1])),
        Case(name: "heartbeat after the end", field: "heartbeat 1", record: heartbeats([61])),
        Case(name: "workout duration NaN", field: "duration", record: workout(duration: .nan)),
        Case(name: "workout duration past its span", field: "duration", record: workout(duration: 601)),
        Case(name: "workout energy -1", field: "totalEnergyBurned", record: workout(energy: RecordedQuantity(-1, unit: "kcal"))),
        Case(name: "workout energy 1e308 J", field: "totalEnergyBurned", record: workout(energy: RecordedQuantity(1e308, unit: "J"))),
        Case(name: "workout energy in metres", field: "totalEnergyBurned", record: workout(energy: RecordedQuantity(1, unit: "m"))),
        Case(name: "workout event ending before it starts", field: "workout event 1",
             record: workout(events: [WorkoutEventRecord(type: HKWorkoutEventType.lap.rawValue, startDate: start.addingTimeInterval(10),
                                                         endDate: start)])),
        Case(name: "workout event outside the workout", field: "workout event 1",
             record: workout(events: [WorkoutEventRecord(type: HKWorkoutEventType.marker.rawValue, startDate: start.addingTimeInterval(700),
                                                         endDate: start.addingTimeInterval(700))])),
        Case(name: "workout distance sum +inf", field: "sum", record: workout(statistics: [distance(sum: .infinity)])),
    ]

    /// Valid extremes: stored and read back exactly.
    static let stored: [Case] = [
        Case(name: "valence -1", field: nil, record: mood(-1)),
        Case(name: "valence +1", field: nil, record: mood(1)),
        Case(name: "audiogram at 0 Hz and -20 dBHL", field: nil, record: audiogram(frequency: 0, sensitivity: -20)),
        Case(name: "audiogram at 30,000 Hz and 160 dBHL", field: nil, record: audiogram(frequency: 30_000, sensitivity: 160)),
        Case(name: "sphere -40", field: nil, record: glasses(LensSpecificationValue(sphere: -40))),
        Case(name: "prescription expiring 2200-01-01", field: nil, record: glasses(expiration: SampleLimits.latestPermittedSampleDate)),
        Case(name: "contacts brand of 256 characters", field: nil, record: contacts(brand: String(repeating: "é", count: 256))),
        Case(name: "device name at the byte bound", field: nil,
             record: stepsSample(device: DeviceRecord(name: String(repeating: "d", count: SampleLimits.maximumDeviceStringBytes)))),
        Case(name: "GAD-7 all 3", field: nil, record: assessment(Array(repeating: 3, count: 7))),
        Case(name: "workout distance sum 0", field: nil, record: workout(statistics: [distance(sum: 0)])),
        Case(name: "heartbeats at 0 and at the end", field: nil, record: heartbeats([0, 60])),
        Case(name: "metadata number -1e308", field: nil, record: stepsSample(metadata: ["org.test.n": .number(-1e308)])),
        Case(name: "metadata dates at 1900-01-01 and 2200-01-01", field: nil,
             record: stepsSample(metadata: ["org.test.early": .date(SampleLimits.earliestPermittedSampleDate),
                                            "org.test.late": .date(SampleLimits.latestPermittedSampleDate)])),
        Case(name: "metadata quantity -1e240 m", field: nil, record: stepsSample(metadata: ["org.test.q": .quantity(value: -1e240, unit: "m")])),
    ]
}

extension SampleRecord {
    /// This record with another start date.
    func moved(start: Date) -> SampleRecord {
        var copy = self
        copy.startDate = start
        return copy
    }
}
