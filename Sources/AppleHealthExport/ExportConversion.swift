public import Foundation
public import HealthModel
import Synchronization

/// A sample read from an export, in the store's model, with the source the export names.
/// The broker re-validates it exactly as an app's save (`SampleValidator`) and stores it under a
/// foreign source of its own making; this module only translates.
public struct ImportedSample: Sendable, Equatable {
    public var record: SampleRecord
    public var sourceName: String?
    public var sourceVersion: String?
    /// Route files (GPX paths) or inline points of a workout, for the importer to read and send.
    public var routes: [ExportWorkoutRoute]
    /// Whether the sample's sync identifier is the import's own digest of its content, its type
    /// and start among it (`addSyncIdentity`): then no other object of its source holds the
    /// identifier under another type or start, and healthd may find it by them
    /// (`ImportSamplesRequest.dated_identities`). False for an identifier the export carried.
    public var datedIdentity = false
}

/// Why one element of the export is not imported. The import goes on; these are counted per
/// type and reason in the summary.
public struct ImportRefusal: Error, Sendable, Equatable, Hashable {
    public var type: String
    public var reason: String

    public init(type: String, reason: String) {
        self.type = type
        self.reason = reason
    }
}

/// Translates export items into samples: units, enum names, metadata kinds, devices, and a
/// deterministic sync identity so importing the same file twice adds nothing.
public enum ExportConversion {
    /// The metadata key the import's sync identifiers start with.
    public static let syncPrefix = "apple-health-import:"
    /// Where a correlation's import identity is kept (a custom key: HealthKit allows no sync
    /// identifier on correlations). The same value as a sync identifier, without a version.
    public static let correlationIdentityKey = SampleRecord.importIdentityKey

    public static func sample(_ record: ExportRecord) throws(ImportRefusal) -> ImportedSample {
        let header = record.header
        let value = try value(of: record)
        var sample = SampleRecord(uuid: placeholderUUID(), typeIdentifier: header.type, startDate: header.startDate, endDate: header.endDate,
                                  value: value, metadata: metadata(header.metadata, type: header.type),
                                  device: header.source.device.flatMap(ExportDevice.parse))
        let dated = addSyncIdentity(&sample, record.header, extra: [record.unit ?? "", record.value ?? ""])
        return ImportedSample(record: sample, sourceName: header.source.name, sourceVersion: header.source.version, routes: [],
                              datedIdentity: dated)
    }

    public static func sample(_ correlation: ExportCorrelation) throws(ImportRefusal) -> ImportedSample {
        let header = correlation.header
        guard HKObjectType.type(forIdentifier: header.type) is HKCorrelationType else {
            throw ImportRefusal(type: header.type, reason: "not a correlation type HealthKit knows")
        }
        var members: [SampleRecord] = []
        for record in correlation.records {
            var member = try sample(record).record
            // Members are stored with their correlation; a sync identity is the correlation's alone.
            member.metadata.removeValue(forKey: HKMetadataKeySyncIdentifier)
            member.metadata.removeValue(forKey: HKMetadataKeySyncVersion)
            members.append(member)
        }
        var sample = SampleRecord(uuid: placeholderUUID(), typeIdentifier: header.type, startDate: header.startDate, endDate: header.endDate,
                                  value: .correlation(members), metadata: metadata(header.metadata, type: header.type),
                                  device: header.source.device.flatMap(ExportDevice.parse))
        // HealthKit refuses sync identifiers on correlations (`CorrelationRules`): the identity
        // goes in a metadata key of the import's own, which healthd's import deduplicates on.
        addSyncIdentity(&sample, header, extra: correlation.records.map { "\($0.header.type)=\($0.value ?? "")\($0.unit ?? "")" },
                        key: correlationIdentityKey)
        return ImportedSample(record: sample, sourceName: header.source.name, sourceVersion: header.source.version, routes: [])
    }

    public static func sample(_ workout: ExportWorkout) throws(ImportRefusal) -> ImportedSample {
        let header = workout.header
        guard let activity = HKObjCEnumNames.workoutActivityTypes[workout.activityType] else {
            throw ImportRefusal(type: HKWorkoutTypeIdentifier, reason: "unknown workout activity type \(workout.activityType)")
        }
        var events: [WorkoutEventRecord] = []
        // An activity's events are the workout's within the activity's span (HKWorkoutActivity's
        // `workoutEvents`): they join the workout's, in the chronological order the validator wants.
        for event in workout.events + workout.activities.flatMap(\.events) {
            guard let type = HKObjCEnumNames.workoutEventTypes[event.type] else {
                throw ImportRefusal(type: HKWorkoutTypeIdentifier, reason: "unknown workout event type \(event.type)")
            }
            let seconds = try event.duration.map { (measure) throws(ImportRefusal) in try Self.seconds(measure) } ?? 0
            events.append(WorkoutEventRecord(type: type, startDate: event.date, endDate: event.date.addingTimeInterval(seconds)))
        }
        if !workout.activities.isEmpty {
            events = events.enumerated().sorted { ($0.element.startDate, $0.offset) < ($1.element.startDate, $1.offset) }.map(\.element)
        }
        let span = header.endDate.timeIntervalSince(header.startDate)
        var duration = try workout.duration.map { (measure) throws(ImportRefusal) in try Self.seconds(measure) }
            ?? WorkoutValue.activeDuration(start: header.startDate, end: header.endDate, events: events)
        // Exports round dates to the second but keep the duration exact: a duration up to a
        // second longer than end − start is that rounding, not an error.
        if duration > span, duration - span < 1 { duration = span }
        let value = WorkoutValue(activityType: activity, duration: duration,
                                 totalEnergyBurned: try workout.totalEnergyBurned.map(recorded) ?? statisticsSum(workout, "HKQuantityTypeIdentifierActiveEnergyBurned"),
                                 totalDistance: try workout.totalDistance.map(recorded) ?? statisticsSum(workout, distanceType(for: workout.activityType)),
                                 events: events,
                                 activities: try workoutActivities(workout, activityType: activity, header: header),
                                 statistics: statistics(workout.statistics, from: header.startDate, to: header.endDate))
        var sample = SampleRecord(uuid: placeholderUUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: header.startDate, endDate: header.endDate,
                                  value: .workout(value), metadata: metadata(header.metadata, type: HKWorkoutTypeIdentifier),
                                  device: header.source.device.flatMap(ExportDevice.parse))
        let dated = addSyncIdentity(&sample, header, extra: [workout.activityType])
        return ImportedSample(record: sample, sourceName: header.source.name, sourceVersion: header.source.version, routes: workout.routes,
                              datedIdentity: dated)
    }

    /// A UUID for a converted sample. healthd mints the stored object's own (it never takes one
    /// from outside), so this only has to be unique within a batch: a random half drawn once per
    /// process and a counter. `UUID()` opened /dev/urandom for every record (libuuid) and two
    /// `getrandom` calls per record were still a twentieth of the import's reading time.
    static func placeholderUUID() -> UUID {
        let count = placeholderCounter.add(1, ordering: .relaxed).newValue
        var halves = (placeholderPrefix, count.bigEndian)
        return withUnsafeBytes(of: &halves) { raw in
            var uuid = raw.load(as: uuid_t.self)
            uuid.6 = (uuid.6 & 0x0F) | 0x40  // version 4
            uuid.8 = (uuid.8 & 0x3F) | 0x80  // RFC 4122 variant
            return UUID(uuid: uuid)
        }
    }

    private static let placeholderPrefix = UInt64.random(in: .min ... .max)
    private static let placeholderCounter = Atomic<UInt64>(0)

    // MARK: Values

    private static func value(of record: ExportRecord) throws(ImportRefusal) -> SampleRecord.Value {
        let type = record.header.type
        switch HKObjectType.type(forIdentifier: type) {
        case let quantityType as HKQuantityType:
            guard let text = record.value, let number = Double(text) else {
                throw ImportRefusal(type: type, reason: "value is not a number")
            }
            // Apple always writes a unit; files from other tools sometimes do not. Their values
            // are read in the unit the Health app shows for the type in metric regions — what
            // such files copy (count/min for heart rate, count for steps, kg, km) — not the
            // canonical unit (heart rate's is count/s, which would make 150 bpm 9,000 bpm).
            let unit = record.unit.map(normalizedUnit) ?? PreferredUnitDefaults.unit(for: quantityType, in: .metric).unitString
            return .quantity(number, unit: unit)
        case is HKCategoryType:
            guard let text = record.value else { throw ImportRefusal(type: type, reason: "no value") }
            if let raw = Int(text) { return .category(raw) }
            guard let raw = HKObjCEnumNames.categoryValues[text] else {
                throw ImportRefusal(type: type, reason: "unknown category value \(text)")
            }
            return .category(raw)
        default:
            throw ImportRefusal(type: type, reason: "not a quantity or category type HealthKit knows")
        }
    }

    /// Apple's export writes a product in a denominator with a middle dot (`mL/min·kg`); the unit
    /// grammar spells it `mL/(min*kg)`.
    static func normalizedUnit(_ unit: String) -> String {
        guard unit.contains("·" as Character) else { return unit }  // stdlib's, not Foundation's substring search
        guard let slash = unit.firstIndex(of: "/") else { return unit.replacingOccurrences(of: "·", with: "*") }
        let numerator = unit[..<slash], denominator = unit[unit.index(after: slash)...]
        return numerator + "/(" + denominator.replacingOccurrences(of: "·", with: "*") + ")"
    }

    static func seconds(_ measure: ExportMeasure) throws(ImportRefusal) -> TimeInterval {
        guard let value = Double(measure.value), value.isFinite else {
            throw ImportRefusal(type: HKWorkoutTypeIdentifier, reason: "duration is not a number")
        }
        let unit = measure.unit ?? "min"  // the DTD's default duration unit
        do {
            return try HKQuantity(unit: HKUnit.parse(unit), doubleValue: value).value(in: .second())
        } catch {
            throw ImportRefusal(type: HKWorkoutTypeIdentifier, reason: "duration unit \(unit) is not a time unit")
        }
    }

    private static func recorded(_ measure: ExportMeasure) throws(ImportRefusal) -> RecordedQuantity {
        guard let value = Double(measure.value), let unit = measure.unit else {
            throw ImportRefusal(type: HKWorkoutTypeIdentifier, reason: "a workout total needs a number and a unit")
        }
        return RecordedQuantity(value, unit: normalizedUnit(unit))
    }

    /// `WorkoutStatistics` as a workout's or activity's statistics (`HKWorkout.allStatistics`),
    /// over its span from `start` to `end`: Apple's element carries no dates of its own in older
    /// exports, and dates newer ones write are kept within that span (they are rounded to the
    /// second, like the workout's). Entries of types this build does not know, or repeated, are
    /// left out; the validator checks the rest. A sum is kept only for a cumulative type and
    /// average, minimum and maximum only for a discrete one, as `WorkoutValidator` requires.
    static func statistics(_ list: [ExportWorkoutStatistics], from start: Date, to end: Date) -> [WorkoutStatisticsRecord] {
        var seen = Set<String>()
        let within = { (date: Date?, fallback: Date) in date.map { max(start, min(end, $0)) } ?? fallback }
        return list.prefix(SampleLimits.maximumWorkoutStatistics).compactMap { statistic in
            guard let type = HKObjectType.type(forIdentifier: statistic.type) as? HKQuantityType, seen.insert(statistic.type).inserted,
                  let unit = statistic.unit.map(normalizedUnit) else { return nil }
            let quantity = { (text: String?) in text.flatMap(Double.init).map { RecordedQuantity($0, unit: unit) } }
            let cumulative = type.aggregationStyle == .cumulative
            let from = within(statistic.startDate, start), to = max(from, within(statistic.endDate, end))
            return WorkoutStatisticsRecord(quantityType: statistic.type, startDate: from, endDate: to,
                                           sum: cumulative ? quantity(statistic.sum) : nil,
                                           average: cumulative ? nil : quantity(statistic.average),
                                           minimum: cumulative ? nil : quantity(statistic.minimum),
                                           maximum: cumulative ? nil : quantity(statistic.maximum))
        }
    }

    /// Newer exports give totals only as `WorkoutStatistics` sums.
    private static func statisticsSum(_ workout: ExportWorkout, _ type: String) -> RecordedQuantity? {
        guard let statistic = workout.statistics.first(where: { $0.type == type }),
              let sum = statistic.sum.flatMap(Double.init), let unit = statistic.unit else { return nil }
        return RecordedQuantity(sum, unit: normalizedUnit(unit))
    }

    private static func distanceType(for activity: String) -> String {
        switch activity {
        case "HKWorkoutActivityTypeCycling", "HKWorkoutActivityTypeHandCycling": "HKQuantityTypeIdentifierDistanceCycling"
        case "HKWorkoutActivityTypeSwimming": "HKQuantityTypeIdentifierDistanceSwimming"
        case "HKWorkoutActivityTypeWheelchairRunPace", "HKWorkoutActivityTypeWheelchairWalkPace": "HKQuantityTypeIdentifierDistanceWheelchair"
        case "HKWorkoutActivityTypeDownhillSkiing", "HKWorkoutActivityTypeSnowboarding": "HKQuantityTypeIdentifierDistanceDownhillSnowSports"
        default: "HKQuantityTypeIdentifierDistanceWalkingRunning"
        }
    }

    // MARK: Metadata

    /// Each entry as its key's kind expects (`HKMetadataKeyRegistry`); custom keys stay strings.
    /// A predefined key whose value does not convert, and an `HK`-prefixed key HealthKit does not
    /// define, are left out (the broker would refuse the whole sample over them).
    static func metadata(_ entries: [ExportMetadataEntry], type: String) -> [String: MetadataValue] {
        var result: [String: MetadataValue] = [:]
        for entry in entries {
            guard let kind = HKMetadataKeyRegistry.expectedKind(forKey: entry.key) else {
                if !HKMetadataKeyRegistry.isReservedPrefix(entry.key) { result[entry.key] = .string(entry.value) }
                continue
            }
            let text = trimmed(entry.value)
            let converted: MetadataValue?
            switch kind {
            case .string: converted = .string(entry.value)
            case .number: converted = Double(text).map(MetadataValue.number)
            case .bool: converted = text == "1" ? .bool(true) : text == "0" ? .bool(false) : nil
            case .date: converted = ExportDate.parse(text).map(MetadataValue.date)
            case .quantity:
                // "56 degF", "96 %", "1.5 km"
                let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
                converted = parts.count == 2 ? Double(parts[0]).map { .quantity(value: $0, unit: normalizedUnit(parts[1])) } : nil
            }
            if let converted { result[entry.key] = converted }
        }
        return result
    }

    /// Without leading and trailing spaces and tabs — by the standard library: Foundation's
    /// `trimmingCharacters(in:)` bridges every value through NSString.
    static func trimmed(_ text: String) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(text[first...last])
    }

    // MARK: Sync identity

    /// Importing the same element again must add nothing: unless the export already carries a
    /// sync identifier (then the original app's upsert rules apply), each sample gets one derived
    /// from everything that identifies it, version 1, so a second import is an ignored upsert.
    /// True when it made a sync identifier: one that names the sample's start and (through the
    /// element's type) its type — the only identifiers `ImportedSample.datedIdentity` may mark.
    @discardableResult
    static func addSyncIdentity(_ sample: inout SampleRecord, _ header: ExportSampleHeader, extra: [String],
                                key: String = HKMetadataKeySyncIdentifier) -> Bool {
        guard sample.metadata[key] == nil else { return false }
        // The fields, joined by U+001F, fed to the digest piece by piece (`StableHash.Digest`):
        // type, start and end (µs), source name, version and device, `extra`, then each metadata
        // entry as key=value. The same text as ever, so a file imported before is recognized.
        var digest = StableHash.Digest()
        digest.append(header.type)
        digest.separator()
        digest.append(sample.startDate.microsecondsSince1970)
        digest.separator()
        digest.append(sample.endDate.microsecondsSince1970)
        digest.separator()
        digest.append(header.source.name ?? "")
        digest.separator()
        digest.append(header.source.version ?? "")
        digest.separator()
        digest.append(header.source.device ?? "")
        for field in extra {
            digest.separator()
            digest.append(field)
        }
        for entry in header.metadata {
            digest.separator()
            digest.append(entry.key)
            digest.append(UInt8(ascii: "="))
            digest.append(entry.value)
        }
        sample.metadata[key] = .string(syncPrefix + digest.hex)
        guard key == HKMetadataKeySyncIdentifier else { return false }
        sample.metadata[HKMetadataKeySyncVersion] = .number(1)
        return true
    }
}
