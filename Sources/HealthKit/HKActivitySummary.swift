public import Foundation

/// One day of the user's activity rings, as HealthKit's `HKActivitySummary`: what the day's
/// samples add up to and the goals the user had set for it. Summaries come from
/// `HKActivitySummaryQuery`; apps may also create and fill one themselves (HealthKit allows it,
/// to draw rings), which is never saved.
///
/// A reader without read permission for activity summaries gets the summaries of its own samples
/// with zero goals, exactly what a user who never set goals would show (ARCHITECTURE.md,
/// "Activity summaries").
///
/// An `NSObject` with `NSSecureCoding`, as Apple's: the archive holds each quantity as its
/// unit's text and value (flat fields), the move mode, the paused flag and, for a fetched
/// summary, its day and time zone. A quantity whose unit is not of its ring's kind (energy,
/// time, count), a non-finite value, an unknown move mode, a day that does not exist or a time
/// zone this system does not know decodes as nil. Equality stays NSObject's identity.
///
/// `NSCopying`, as Apple's: the rings are settable, so a copy is a new summary with the same
/// values, day and time zone, and setting a ring on it leaves the original as it was.
public final class HKActivitySummary: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// Kilocalories of active energy burned: the move ring in `.activeEnergy` mode.
    public var activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: 0)
    public var activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: 0)
    /// Minutes of move time: the move ring in `.appleMoveTime` mode.
    public var appleMoveTime = HKQuantity(unit: .minute(), doubleValue: 0)
    public var appleMoveTimeGoal = HKQuantity(unit: .minute(), doubleValue: 0)
    public var appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: 0)
    public var appleExerciseTimeGoal = HKQuantity(unit: .minute(), doubleValue: 0)
    /// Hours with a stand, as a count.
    public var appleStandHours = HKQuantity(unit: .count(), doubleValue: 0)
    public var appleStandHoursGoal = HKQuantity(unit: .count(), doubleValue: 0)
    public var activityMoveMode: HKActivityMoveMode = .activeEnergy
    /// The user paused their rings for the day. Pausing is not modelled here: always false.
    public var isPaused = false

    /// The day, and the time zone its days were computed in; nil for a summary an app made.
    private(set) var day: CalendarDay?
    private var timeZone = TimeZone.current

    public override init() {
        super.init()
    }

    init(_ record: ActivitySummaryRecord, timeZone: TimeZone) {
        super.init()
        day = record.day
        self.timeZone = timeZone
        activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: record.totals.activeEnergyBurned)
        activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: record.goals.moveKilocalories)
        appleMoveTime = HKQuantity(unit: .minute(), doubleValue: record.totals.moveTimeMinutes)
        appleMoveTimeGoal = HKQuantity(unit: .minute(), doubleValue: record.goals.moveTimeMinutes)
        appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: record.totals.exerciseMinutes)
        appleExerciseTimeGoal = HKQuantity(unit: .minute(), doubleValue: record.goals.exerciseMinutes)
        appleStandHours = HKQuantity(unit: .count(), doubleValue: Double(record.totals.standHours))
        appleStandHoursGoal = HKQuantity(unit: .count(), doubleValue: record.goals.standHours)
        activityMoveMode = record.moveMode
    }

    /// The exercise goal (HealthKit 16's optional form of `appleExerciseTimeGoal`).
    public var exerciseTimeGoal: HKQuantity? {
        get { appleExerciseTimeGoal }
        set { appleExerciseTimeGoal = newValue ?? HKQuantity(unit: .minute(), doubleValue: 0) }
    }

    /// The stand goal (HealthKit 16's optional form of `appleStandHoursGoal`).
    public var standHoursGoal: HKQuantity? {
        get { appleStandHoursGoal }
        set { appleStandHoursGoal = newValue ?? HKQuantity(unit: .count(), doubleValue: 0) }
    }

    /// The summary's day in `calendar` (era, year, month, day, with the calendar set); empty
    /// components for a summary an app created.
    public func dateComponents(for calendar: Calendar) -> DateComponents {
        guard let day else { return DateComponents() }
        var local = Calendar(identifier: .gregorian)
        local.timeZone = timeZone
        guard let noon = local.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)) else {
            return DateComponents()
        }
        var calendar = calendar
        calendar.timeZone = timeZone
        var components = calendar.dateComponents([.era, .year, .month, .day], from: noon)
        components.calendar = calendar
        return components
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    /// Each quantity's key and the unit its kind converts to, in one table for both directions.
    private static var quantityFields: [(key: String, dimension: HKUnit, path: ReferenceWritableKeyPath<HKActivitySummary, HKQuantity>)] { [
        ("activeEnergyBurned", .kilocalorie(), \.activeEnergyBurned),
        ("activeEnergyBurnedGoal", .kilocalorie(), \.activeEnergyBurnedGoal),
        ("appleMoveTime", .minute(), \.appleMoveTime),
        ("appleMoveTimeGoal", .minute(), \.appleMoveTimeGoal),
        ("appleExerciseTime", .minute(), \.appleExerciseTime),
        ("appleExerciseTimeGoal", .minute(), \.appleExerciseTimeGoal),
        ("appleStandHours", .count(), \.appleStandHours),
        ("appleStandHoursGoal", .count(), \.appleStandHoursGoal),
    ] }
    private static let moveModeKey = "activityMoveMode"
    private static let pausedKey = "paused"
    private static let yearKey = "day.year"
    private static let monthKey = "day.month"
    private static let dayKey = "day.day"
    private static let timeZoneKey = "timeZone"

    public func encode(with coder: NSCoder) {
        for field in Self.quantityFields { coder.encodeQuantity(self[keyPath: field.path], forKey: field.key) }
        coder.encode(NSNumber(value: activityMoveMode.rawValue), forKey: Self.moveModeKey)
        coder.encode(NSNumber(value: isPaused), forKey: Self.pausedKey)
        if let day {
            coder.encode(NSNumber(value: day.year), forKey: Self.yearKey)
            coder.encode(NSNumber(value: day.month), forKey: Self.monthKey)
            coder.encode(NSNumber(value: day.day), forKey: Self.dayKey)
            coder.encode(NSString(string: timeZone.identifier), forKey: Self.timeZoneKey)
        }
    }

    public required convenience init?(coder: NSCoder) {
        var quantities: [HKQuantity] = []
        for field in Self.quantityFields {
            guard let quantity = coder.decodeRequiredQuantity(forKey: field.key, compatibleWith: field.dimension) else { return nil }
            quantities.append(quantity)
        }
        guard let moveMode = coder.decodeRequiredInt(forKey: Self.moveModeKey).flatMap(HKActivityMoveMode.init(rawValue:)),
              let paused = coder.decodeRequiredNumber(forKey: Self.pausedKey)?.boolValue else { return nil }
        var day: CalendarDay?
        var timeZone = TimeZone.current
        if [Self.yearKey, Self.monthKey, Self.dayKey, Self.timeZoneKey].contains(where: coder.containsValue(forKey:)) {
            guard let year = coder.decodeRequiredInt(forKey: Self.yearKey),
                  let month = coder.decodeRequiredInt(forKey: Self.monthKey),
                  let dayOfMonth = coder.decodeRequiredInt(forKey: Self.dayKey),
                  let valid = CalendarDay(year: year, month: month, day: dayOfMonth),
                  let zone = coder.decodeRequiredString(forKey: Self.timeZoneKey).flatMap(TimeZone.init(identifier:)) else { return nil }
            day = valid
            timeZone = zone
        }
        self.init()
        for (field, quantity) in zip(Self.quantityFields, quantities) { self[keyPath: field.path] = quantity }
        activityMoveMode = moveMode
        isPaused = paused
        self.day = day
        self.timeZone = timeZone
    }
}

extension HKActivitySummary {
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = HKActivitySummary()
        for field in Self.quantityFields { copy[keyPath: field.path] = self[keyPath: field.path] }
        copy.activityMoveMode = activityMoveMode
        copy.isPaused = isPaused
        copy.day = day
        copy.timeZone = timeZone
        return copy
    }
}
