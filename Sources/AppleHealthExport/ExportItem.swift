public import Foundation

/// One top-level element of Apple Health's `export.xml`, typed, as the reader meets it. Values
/// stay as the export spells them (unit strings, identifiers, enum names); turning them into
/// samples is the importer's job, so this module only reads.
public enum ExportItem: Sendable, Equatable {
    case exportDate(Date)
    case me(ExportCharacteristics)
    case record(ExportRecord)
    case correlation(ExportCorrelation)
    case workout(ExportWorkout)
    case activitySummary(ExportActivitySummary)
    case audiogram(ExportAudiogram)
    /// A `ClinicalRecord` (DTD v11+); its FHIR JSON is a file beside export.xml.
    case clinicalRecord(ExportClinicalRecord)
    /// A `VisionPrescription` (DTD v14): glasses or contacts and their lenses.
    case visionPrescription(ExportVisionPrescription)
    /// OpenHealthKit's `StateOfMind` (no Apple DTD has one).
    case stateOfMind(ExportStateOfMind)
    /// OpenHealthKit's `ScoredAssessment`: GAD-7 and PHQ-9 (no Apple DTD has one).
    case scoredAssessment(ExportScoredAssessment)
    /// OpenHealthKit's `CDADocument`: a stored CDA document, its bytes a file under `cda-documents/`.
    case document(ExportDocument)
}

/// Who wrote an object, as the export names it.
public struct ExportSource: Sendable, Equatable, Hashable {
    /// Required by Apple's DTD, missing in files other tools wrote.
    public var name: String?
    public var version: String?
    /// The device description Apple writes (`<<HKDevice: …>, name:Apple Watch, …>`), verbatim.
    public var device: String?
}

/// The common part of records, correlations and workouts.
public struct ExportSampleHeader: Sendable, Equatable {
    public var type: String
    public var source: ExportSource
    public var creationDate: Date?
    public var startDate: Date
    public var endDate: Date
    /// `MetadataEntry` key/value pairs in document order, values as written.
    public var metadata: [ExportMetadataEntry]
    /// Where the element starts in the file, for messages about it.
    public var line: Int
}

public struct ExportMetadataEntry: Sendable, Equatable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// A `Record`: a quantity (`value` a number, with `unit`) or a category (`value` an enum name
/// such as `HKCategoryValueSleepAnalysisAsleep`, or a number).
public struct ExportRecord: Sendable, Equatable {
    public var header: ExportSampleHeader
    public var unit: String?
    public var value: String?
    /// Heart-rate-variability records list their beats (`InstantaneousBeatsPerMinute`).
    public var beats: [ExportBeat]
}

public struct ExportBeat: Sendable, Equatable {
    public var bpm: String
    public var time: String
}

public struct ExportCorrelation: Sendable, Equatable {
    public var header: ExportSampleHeader
    public var records: [ExportRecord]
}

public struct ExportWorkout: Sendable, Equatable {
    public var header: ExportSampleHeader
    /// `HKWorkoutActivityTypeRunning` and the like.
    public var activityType: String
    public var duration: ExportMeasure?
    public var totalDistance: ExportMeasure?
    public var totalEnergyBurned: ExportMeasure?
    public var events: [ExportWorkoutEvent]
    public var statistics: [ExportWorkoutStatistics]
    public var routes: [ExportWorkoutRoute]
    /// iOS 16's `WorkoutActivity` children, in document order.
    public var activities: [ExportWorkoutActivity] = []
}

/// iOS 16's `WorkoutActivity`: one activity of a workout (a set of a swim, a leg of a
/// multisport workout) with its own dates, events, statistics and metadata. Apple's element
/// names no activity type or location: the type is the workout's, the location and a swim's
/// pool length are metadata entries (`HKIndoorWorkout`, `HKSwimmingLocationType`, `HKLapLength`).
public struct ExportWorkoutActivity: Sendable, Equatable {
    /// Required by Apple's DTD; kept as written and checked when converted.
    public var uuid: String?
    public var startDate: Date
    /// Optional in the DTD: an activity may give a duration instead.
    public var endDate: Date?
    public var duration: ExportMeasure?
    public var events: [ExportWorkoutEvent]
    public var statistics: [ExportWorkoutStatistics]
    public var metadata: [ExportMetadataEntry]
    /// Where the element starts in the file, for messages about it.
    public var line: Int
}

/// A number with its unit, as two attributes of the export.
public struct ExportMeasure: Sendable, Equatable {
    public var value: String
    public var unit: String?

    public init(value: String, unit: String?) {
        self.value = value
        self.unit = unit
    }
}

public struct ExportWorkoutEvent: Sendable, Equatable {
    /// `HKWorkoutEventTypePause` and the like.
    public var type: String
    public var date: Date
    public var duration: ExportMeasure?
}

public struct ExportWorkoutStatistics: Sendable, Equatable {
    public var type: String
    /// Newer exports date each statistic; older ones cover the workout's span.
    public var startDate: Date? = nil
    public var endDate: Date? = nil
    public var sum: String?
    public var average: String?
    public var minimum: String?
    public var maximum: String?
    public var unit: String?
}

/// A route: a GPX file in the export's `workout-routes/` folder (newer exports), or its points
/// inline (older ones).
public struct ExportWorkoutRoute: Sendable, Equatable {
    public var source: ExportSource
    public var filePath: String?
    public var locations: [ExportLocation]
}

public struct ExportLocation: Sendable, Equatable {
    public var date: Date
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?
    public var course: Double?
    public var speed: Double?
}

public struct ExportActivitySummary: Sendable, Equatable {
    /// The day, `YYYY-MM-DD`.
    public var day: String
    /// Attribute name → value as written (`activeEnergyBurned`, `…Goal`, `…Unit`, `appleExerciseTime`, …).
    public var values: [String: String]
}

/// The `Me` element: characteristic identifier → value name as written
/// (`HKCharacteristicTypeIdentifierBiologicalSex` → `HKBiologicalSexFemale`).
public struct ExportCharacteristics: Sendable, Equatable {
    public var values: [String: String]
}
