import HealthModel

/// How much one item of export.xml (a record, a workout, a correlation, an audiogram …) may
/// gather before its element closes. The reader hands an item on only when it closes, so until
/// then everything nested in it is held in memory: unbounded, one `<Workout>` of a million events
/// or one `<Record>` of a million metadata entries holds the whole file. Children are counted as
/// they arrive, per kind, against the model's own bound for that kind with room to spare (the
/// reader bounds memory; the conversion and `SampleValidator` still apply the exact rules), and
/// the attribute bytes of kept children against one total. Past either, the item is refused with
/// its line, the kind and the bound, before another child is kept.
struct ExportItemBudget {
    /// The most children of each kind one item may hold, across its activities and routes.
    static let childLimits: [String: Int] = [
        // A workout's activities each carry their own metadata and statistics.
        "MetadataEntry": 64 * SampleLimits.maximumMetadataEntries,
        "WorkoutStatistics": 64 * SampleLimits.maximumWorkoutStatistics,
        "WorkoutEvent": SampleLimits.maximumWorkoutEvents,
        "WorkoutActivity": SampleLimits.maximumWorkoutActivities,
        "WorkoutRoute": 64,
        "Location": SampleLimits.maximumRouteLocations,
        "InstantaneousBeatsPerMinute": SeriesValidator.maximumHeartbeats,
        // A correlation's samples: a food entry has a few dozen nutrients.
        "Record": 1_000,
        "SensitivityPoint": 4 * AudiogramRules.maxPoints,
        "SensitivityTest": 4 * AudiogramRules.maxPoints * 2 * ExportConversion.maxImportedTestsPerPoint,
    ]
    /// Any other kind of child (file references, lenses, elements the reader skips).
    static let otherChildLimit = 10_000
    /// Attribute bytes of the children one item keeps as text (everything but route locations,
    /// which are kept as numbers and bounded by their count).
    static let maximumTextBytes = 16 << 20

    private var item = ""
    private var itemLine = 0
    private var counts: [String: Int] = [:]
    private var textBytes = 0

    /// A new item starts: nothing counted.
    mutating func start(item name: String, line: Int) {
        item = name
        itemLine = line
        counts.removeAll(keepingCapacity: true)
        textBytes = 0
    }

    /// Counts one child of the open item; throws when it is one too many of its kind or its text
    /// passes the item's total.
    mutating func admit(_ child: String, textBytes bytes: Int, line: Int, file: String) throws(ExportReadError) {
        let limit = Self.childLimits[child] ?? Self.otherChildLimit
        let key = Self.childLimits[child] == nil ? "" : child
        let count = counts[key, default: 0] + 1
        counts[key] = count
        guard count <= limit else {
            let kind = key.isEmpty ? "child elements of other kinds" : "<\(child)> elements"
            throw .invalidElement(file: file, element: item, line: itemLine, reason:
                "holds more than \(limit) \(kind) (the next is on line \(line)); no item this large can be imported")
        }
        if child != "Location" { textBytes += bytes }
        guard textBytes <= Self.maximumTextBytes else {
            throw .invalidElement(file: file, element: item, line: itemLine, reason:
                "holds more than \(Self.maximumTextBytes) bytes of attribute text in its children (passed on line \(line)); no item this large can be imported")
        }
    }
}
