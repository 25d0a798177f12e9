import Foundation
import HealthModel
import HealthWire

/// `HKWorkoutActivity`'s archive: every field flat beside the others, never a nested archived
/// object (swift-corelibs-foundation traps on a nested object of an unexpected class; see
/// `NSCoder+ArchiveFields`):
/// - the UUID's text, the start and (while not in progress) end as seconds since the reference date;
/// - the configuration's own fields (`HKWorkoutConfiguration.encode(with:)`, whose keys differ
///   from the ones below), read back by its own `init?(coder:)`;
/// - the metadata (`MetadataArchiveFields`), each event's fields under `events.N.`;
/// - the statistics as the wire's statistics batch (read back by the bounded parser that reads
///   healthd's answers) with their types' identifiers in the same order.
///
/// Decoding fails (nil) when any of these is missing, mistyped or malformed, a date is not
/// finite, the activity or an event ends before it starts, a type is not a quantity type
/// HealthKit defines, or two statistics are for the same type. Equality stays Apple's (UUID).
extension HKWorkoutActivity {
    public static var supportsSecureCoding: Bool { true }

    private static let uuidKey = "uuid"
    private static let startKey = "startDate"
    private static let endKey = "endDate"
    private static let eventCountKey = "eventCount"
    private static func eventPrefix(_ index: Int) -> String { "events.\(index)." }
    private static let statisticsKey = "statistics"
    private static let statisticsTypeCountKey = "statisticsTypeCount"
    private static func statisticsTypeKey(_ index: Int) -> String { "statisticsType.\(index)" }

    public func encode(with coder: NSCoder) {
        coder.encode(NSString(string: uuid.uuidString), forKey: Self.uuidKey)
        workoutConfiguration.encode(with: coder)
        coder.encode(NSNumber(value: startDate.timeIntervalSinceReferenceDate), forKey: Self.startKey)
        if let endDate { coder.encode(NSNumber(value: endDate.timeIntervalSinceReferenceDate), forKey: Self.endKey) }
        MetadataArchiveFields.encode(metadataValues, with: coder)
        coder.encode(NSNumber(value: workoutEvents.count), forKey: Self.eventCountKey)
        for (index, event) in workoutEvents.enumerated() { event.encodeFields(prefix: Self.eventPrefix(index), with: coder) }
        // Sorted so that equal activities make the same archive.
        let statistics = allStatistics.values.sorted { $0.quantityType.identifier < $1.quantityType.identifier }
        coder.encode(Data(StatisticsBatch(statistics.map(\.result)).wireBytes()) as NSData, forKey: Self.statisticsKey)
        coder.encode(NSNumber(value: statistics.count), forKey: Self.statisticsTypeCountKey)
        for (index, statistic) in statistics.enumerated() {
            coder.encode(NSString(string: statistic.quantityType.identifier), forKey: Self.statisticsTypeKey(index))
        }
    }

    public convenience init?(coder: NSCoder) {
        guard let uuid = coder.decodeRequiredString(forKey: Self.uuidKey).flatMap(UUID.init(uuidString:)),
              let configuration = HKWorkoutConfiguration(coder: coder),
              let start = coder.decodeRequiredFiniteDouble(forKey: Self.startKey),
              let end = coder.containsValue(forKey: Self.endKey) ? coder.decodeRequiredFiniteDouble(forKey: Self.endKey) : .some(.infinity),
              start <= end,
              let metadata = MetadataArchiveFields.decode(from: coder),
              let events = Self.decodeEvents(from: coder),
              let statistics = Self.decodeStatistics(from: coder) else { return nil }
        self.init(uuid: uuid, configuration: configuration, start: Date(timeIntervalSinceReferenceDate: start),
                  end: end.isInfinite ? nil : Date(timeIntervalSinceReferenceDate: end),
                  metadata: metadata, events: events, statistics: statistics)
    }

    /// Reading stops at the first missing or malformed event, so a tampered count cannot make
    /// it read more than the archive holds.
    private static func decodeEvents(from coder: NSCoder) -> [HKWorkoutEvent]? {
        guard let count = coder.decodeRequiredInt(forKey: eventCountKey), count >= 0 else { return nil }
        var events: [HKWorkoutEvent] = []
        for index in 0..<count {
            guard let event = HKWorkoutEvent(archivedFieldsWithPrefix: eventPrefix(index), from: coder) else { return nil }
            events.append(event)
        }
        return events
    }

    private static func decodeStatistics(from coder: NSCoder) -> [HKQuantityType: HKStatistics]? {
        guard let bytes = coder.decodeRequiredData(forKey: statisticsKey),
              let results = try? StatisticsBatch(wire: Array(bytes)).statistics,
              coder.decodeRequiredInt(forKey: statisticsTypeCountKey) == results.count else { return nil }
        var statistics: [HKQuantityType: HKStatistics] = [:]
        for (index, result) in results.enumerated() {
            guard let type = coder.decodeRequiredString(forKey: statisticsTypeKey(index))
                    .flatMap({ HKObjectType.type(forIdentifier: $0) as? HKQuantityType }),
                  statistics.updateValue(HKStatistics(type: type, result: result, separateBySource: false), forKey: type) == nil
            else { return nil }
        }
        return statistics
    }
}
