public import Foundation

/// How a workout is recorded, as HealthKit's `HKWorkoutConfiguration`: the activity, where it
/// happens, and for swimming the kind of water and the pool's lap length. A mutable class like
/// Apple's; sessions, builders and activities keep their own copy (`NSCopying`), so changing
/// a configuration after handing it over changes nothing recorded.
///
/// `NSSecureCoding`, as Apple's: the archive holds the three types' raw values and the lap
/// length as its unit string and value (flat fields, never a nested `HKQuantity`; see
/// `NSCoder+ArchiveFields`).
public final class HKWorkoutConfiguration: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked: mutable like Apple's, and like Apple's not meant to be shared while mutated;
    // everything the SDK keeps is a copy.
    public var activityType: HKWorkoutActivityType = .other
    public var locationType: HKWorkoutSessionLocationType = .unknown
    public var swimmingLocationType: HKWorkoutSwimmingLocationType = .unknown
    /// A length; HealthKit requires one for pool swimming workouts.
    public var lapLength: HKQuantity?

    public override init() {
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = HKWorkoutConfiguration()
        copy.activityType = activityType
        copy.locationType = locationType
        copy.swimmingLocationType = swimmingLocationType
        copy.lapLength = lapLength
        return copy
    }

    /// A copy typed as a configuration.
    func snapshot() -> HKWorkoutConfiguration {
        // copy(with:) always returns an HKWorkoutConfiguration; the fallback keeps this total.
        copy() as? HKWorkoutConfiguration ?? HKWorkoutConfiguration()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKWorkoutConfiguration else { return false }
        return activityType == other.activityType && locationType == other.locationType
            && swimmingLocationType == other.swimmingLocationType && lapLength == other.lapLength
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(activityType)
        hasher.combine(locationType)
        hasher.combine(swimmingLocationType)
        return hasher.finalize()
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let activityKey = "activityType"
    private static let locationKey = "locationType"
    private static let swimmingKey = "swimmingLocationType"
    private static let lapUnitKey = "lapLengthUnit"
    private static let lapValueKey = "lapLength"

    public func encode(with coder: NSCoder) {
        coder.encode(NSNumber(value: activityType.rawValue), forKey: Self.activityKey)
        coder.encode(NSNumber(value: locationType.rawValue), forKey: Self.locationKey)
        coder.encode(NSNumber(value: swimmingLocationType.rawValue), forKey: Self.swimmingKey)
        if let lapLength {
            coder.encode(NSString(string: lapLength.unit.unitString), forKey: Self.lapUnitKey)
            coder.encode(NSNumber(value: lapLength.doubleValue(for: lapLength.unit)), forKey: Self.lapValueKey)
        }
    }

    /// Fails (nil, as secure decoding does) when a type is missing, not a number or not a value
    /// this SDK knows, or a lap length is present with its unit or value missing, mistyped, or a
    /// unit text that does not parse.
    public required convenience init?(coder: NSCoder) {
        guard let activity = coder.decodeRequiredInt(forKey: Self.activityKey)
                .flatMap({ UInt(exactly: $0) }).flatMap(HKWorkoutActivityType.init(rawValue:)),
              let location = coder.decodeRequiredInt(forKey: Self.locationKey).flatMap(HKWorkoutSessionLocationType.init(rawValue:)),
              let swimming = coder.decodeRequiredInt(forKey: Self.swimmingKey)
                .flatMap(HKWorkoutSwimmingLocationType.init(rawValue:)) else { return nil }
        var lapLength: HKQuantity?
        if coder.containsValue(forKey: Self.lapUnitKey) || coder.containsValue(forKey: Self.lapValueKey) {
            guard let unit = coder.decodeRequiredString(forKey: Self.lapUnitKey),
                  let parsed = try? HKUnit.parse(unit), parsed.isCompatible(with: .meter()),
                  let value = coder.decodeRequiredFiniteDouble(forKey: Self.lapValueKey) else { return nil }
            lapLength = HKQuantity(unit: parsed, doubleValue: value)
        }
        self.init()
        activityType = activity
        locationType = location
        swimmingLocationType = swimming
        self.lapLength = lapLength
    }

    /// The metadata HealthKit's builder records on a workout for this configuration:
    /// `HKMetadataKeyIndoorWorkout` for an indoor or outdoor location, the swimming location
    /// type and the lap length for swimming.
    var workoutMetadata: [String: Any] {
        var metadata: [String: Any] = [:]
        switch locationType {
        case .indoor: metadata[HKMetadataKeyIndoorWorkout] = true
        case .outdoor: metadata[HKMetadataKeyIndoorWorkout] = false
        case .unknown: break
        }
        if swimmingLocationType != .unknown { metadata[HKMetadataKeySwimmingLocationType] = swimmingLocationType.rawValue }
        if let lapLength { metadata[HKMetadataKeyLapLength] = lapLength }
        return metadata
    }

    /// The record form, for an activity of a saved workout.
    func record(uuid: UUID, start: Date, end: Date, metadata: [String: MetadataValue],
                statistics: [WorkoutStatisticsRecord]) -> WorkoutActivityRecord {
        WorkoutActivityRecord(uuid: uuid, activityType: activityType.rawValue, locationType: locationType.rawValue,
                              swimmingLocationType: swimmingLocationType.rawValue,
                              lapLength: lapLength.map { RecordedQuantity($0.doubleValue(for: $0.unit), unit: $0.unit.unitString) },
                              startDate: start, endDate: end, metadata: metadata, statistics: statistics)
    }

    /// The configuration of a fetched activity; nil for a raw value this SDK does not know.
    convenience init?(record: WorkoutActivityRecord) {
        guard let activity = HKWorkoutActivityType(rawValue: record.activityType),
              let location = HKWorkoutSessionLocationType(rawValue: record.locationType),
              let swimming = HKWorkoutSwimmingLocationType(rawValue: record.swimmingLocationType) else { return nil }
        self.init()
        activityType = activity
        locationType = location
        swimmingLocationType = swimming
        lapLength = record.lapLength.map { HKQuantity(unit: HKUnit(from: $0.unit), doubleValue: $0.value) }
    }
}
