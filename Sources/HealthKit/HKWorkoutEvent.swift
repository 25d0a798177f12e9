public import Foundation

/// Something that happened during a workout — a pause, a lap, a segment — as HealthKit's
/// `HKWorkoutEvent`. Laps and segments span an interval; the other types mark an instant (an
/// interval of zero duration). The broker checks this, and that events lie inside the workout.
///
/// An `NSObject` with `NSSecureCoding`, as Apple's: the archive holds the type's raw value, the
/// interval's dates and the metadata as flat fields (`MetadataArchiveFields`). Two events are
/// equal when type, interval and metadata are (`==`, `isEqual(_:)` and `Set` agree).
public final class HKWorkoutEvent: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked: every stored property is an immutable value.
    public let type: HKWorkoutEventType
    public let dateInterval: DateInterval
    /// The metadata as HealthKit hands it out (see `HKObject.metadata`).
    public var metadata: [String: Any]? { metadataValues?.mapValues(\.anyValue) }

    let metadataValues: [String: MetadataValue]?
    /// Why part of the metadata cannot be stored; saving the workout throws it.
    let metadataError: HKError?

    public init(type: HKWorkoutEventType, dateInterval: DateInterval, metadata: [String: Any]?) {
        self.type = type
        self.dateInterval = dateInterval
        (metadataValues, metadataError) = MetadataConversion.convert(metadata)
        super.init()
    }

    init(record: WorkoutEventRecord, type: HKWorkoutEventType) {
        self.type = type
        dateInterval = DateInterval(start: record.startDate, end: max(record.startDate, record.endDate))
        metadataValues = record.metadata.isEmpty ? nil : record.metadata
        metadataError = nil
        super.init()
    }

    private init(type: HKWorkoutEventType, dateInterval: DateInterval, metadataValues: [String: MetadataValue]?) {
        self.type = type
        self.dateInterval = dateInterval
        self.metadataValues = metadataValues
        metadataError = nil
        super.init()
    }

    var record: WorkoutEventRecord {
        WorkoutEventRecord(type: type.rawValue, startDate: dateInterval.start, endDate: dateInterval.end,
                           metadata: metadataValues ?? [:])
    }

    // MARK: Equality (NSObject's, so == and Set use it too)

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKWorkoutEvent else { return false }
        return other.record == record
    }

    public override var hash: Int { record.hashValue }

    /// Immutable, so a copy is the event itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let typeKey = "type"
    private static let startKey = "startDate"
    private static let endKey = "endDate"

    /// Metadata that could not be converted when the event was made is not archived (saving
    /// the event's workout fails on it; the archive holds the entries that did convert).
    public func encode(with coder: NSCoder) { encodeFields(prefix: "", with: coder) }

    /// Fails (nil, as secure decoding does) when a field is missing or of the wrong kind, the type
    /// is not one this SDK knows, the dates are not finite or end before they start, or the
    /// metadata fields are malformed.
    public required convenience init?(coder: NSCoder) {
        guard let fields = Self.decodeFields(prefix: "", from: coder) else { return nil }
        self.init(type: fields.type, dateInterval: fields.interval, metadataValues: fields.metadata)
    }

    /// The fields under `prefix`, so an activity holds its events flat beside its own fields.
    func encodeFields(prefix: String, with coder: NSCoder) {
        coder.encode(NSNumber(value: type.rawValue), forKey: prefix + Self.typeKey)
        coder.encode(NSNumber(value: dateInterval.start.timeIntervalSinceReferenceDate), forKey: prefix + Self.startKey)
        coder.encode(NSNumber(value: dateInterval.end.timeIntervalSinceReferenceDate), forKey: prefix + Self.endKey)
        MetadataArchiveFields.encode(metadataValues, prefix: prefix, with: coder)
    }

    static func decodeFields(prefix: String, from coder: NSCoder)
        -> (type: HKWorkoutEventType, interval: DateInterval, metadata: [String: MetadataValue]?)? {
        guard let type = coder.decodeRequiredInt(forKey: prefix + typeKey).flatMap(HKWorkoutEventType.init(rawValue:)),
              let start = coder.decodeRequiredFiniteDouble(forKey: prefix + startKey),
              let end = coder.decodeRequiredFiniteDouble(forKey: prefix + endKey),
              start <= end,  // DateInterval traps on an end before its start
              let metadata = MetadataArchiveFields.decode(prefix: prefix, from: coder) else { return nil }
        return (type, DateInterval(start: Date(timeIntervalSinceReferenceDate: start), end: Date(timeIntervalSinceReferenceDate: end)),
                metadata)
    }

    /// An event decoded from fields under `prefix` (see `decodeFields`).
    convenience init?(archivedFieldsWithPrefix prefix: String, from coder: NSCoder) {
        guard let fields = Self.decodeFields(prefix: prefix, from: coder) else { return nil }
        self.init(type: fields.type, dateInterval: fields.interval, metadataValues: fields.metadata)
    }
}
