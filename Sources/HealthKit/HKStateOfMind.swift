public import Foundation

/// How someone felt, as HealthKit's `HKStateOfMind` (iOS 18): a momentary emotion or a daily
/// mood, its valence from −1 (very unpleasant) to +1 (very pleasant), and optional labels and
/// associations. Nested enums carry HealthKit's raw values.
///
/// HealthKit checks the values when the sample is created; here the initializer cannot fail (as
/// Apple's), and `save` refuses an invalid one — a valence outside −1…1 or NaN, an unknown raw
/// value, a label or association given twice — with `errorInvalidArgument` naming the field.
public final class HKStateOfMind: HKSample, @unchecked Sendable {
    /// `HKStateOfMindKind`: whether the person reflected on a moment or on the whole day. One
    /// enum (HealthModel's generated one) under both of Apple's spellings.
    public typealias Kind = HKStateOfMindKind

    /// `HKStateOfMindValenceClassification`: the valence in seven bands. One enum (HealthModel's
    /// generated one) under both of Apple's spellings; `init?(valence:)` is below.
    public typealias ValenceClassification = HKStateOfMindValenceClassification

    /// `HKStateOfMindLabel`. The first 31 are alphabetical; HealthKit appended the rest.
    public enum Label: Int, Sendable, CaseIterable {
        case amazed = 1, amused, angry, anxious, ashamed, brave, calm, content, disappointed, discouraged
        case disgusted, embarrassed, excited, frustrated, grateful, guilty, happy, hopeless, irritated, jealous
        case joyful, lonely, passionate, peaceful, proud, relieved, sad, scared, stressed, surprised, worried
        case annoyed, confident, drained, hopeful, indifferent, overwhelmed, satisfied
    }

    /// `HKStateOfMindAssociation`: the part of life the feeling is about.
    public enum Association: Int, Sendable, CaseIterable {
        case community = 1, currentEvents, dating, education, family, fitness, friends, health, hobbies
        case identity, money, partner, selfCare, spirituality, tasks, travel, work, weather
    }

    public let kind: Kind
    public let valence: Double
    public let labels: [Label]
    public let associations: [Association]

    /// The band of `valence`. An unsaved sample with an invalid valence (which `save` refuses)
    /// reads as the nearest band, NaN as neutral, so this never traps.
    public var valenceClassification: ValenceClassification {
        let clamped = valence.isNaN ? 0 : min(1, max(-1, valence))
        return ValenceClassification(valence: clamped) ?? .neutral
    }

    public init(date: Date, kind: Kind, valence: Double, labels: [Label], associations: [Association],
                metadata: [String: Any]? = [:]) {
        self.kind = kind
        self.valence = valence
        self.labels = labels
        self.associations = associations
        let value = StateOfMindValue(kind: kind.rawValue, valence: valence, labels: labels.map(\.rawValue),
                                     associations: associations.map(\.rawValue))
        // One moment: HealthKit's State of Mind has no duration.
        super.init(type: HKObjectType.stateOfMindType(), value: .stateOfMind(value), start: date, end: date,
                   device: nil, metadata: metadata)
    }

    /// A fetched state of mind. healthd validated it on save; a raw value this SDK does not know
    /// (a newer healthd) is a protocol mismatch, reported rather than guessed.
    /// Reads an archive (`ArchivedSample`).
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKStateOfMindType,
              case let .stateOfMind(value) = archived.record.value else { return nil }
        do {
            try self.init(type: type, fetched: archived.record, value, parts: archived.parts)
        } catch {
            return nil
        }
    }

    init(type: HKStateOfMindType, fetched record: SampleRecord, _ value: StateOfMindValue, parts: FetchedObjectParts) throws(HKError) {
        guard let kind = Kind(rawValue: value.kind) else { throw Self.mismatch("kind \(value.kind)") }
        var labels: [Label] = []
        for raw in value.labels {
            guard let label = Label(rawValue: raw) else { throw Self.mismatch("label \(raw)") }
            labels.append(label)
        }
        var associations: [Association] = []
        for raw in value.associations {
            guard let association = Association(rawValue: raw) else { throw Self.mismatch("association \(raw)") }
            associations.append(association)
        }
        self.kind = kind
        valence = value.valence
        self.labels = labels
        self.associations = associations
        super.init(type: type, fetched: record, parts: parts)
    }

    private static func mismatch(_ what: String) -> HKError {
        HKError(.unknownError, "healthd sent a state of mind \(what) this SDK does not know; the SDK and healthd versions may not match")
    }
}

extension HKStateOfMindValenceClassification {
    /// The band `valence` falls in; nil outside −1…1 (Apple's rule, `StateOfMindValue`).
    public init?(valence: Double) {
        guard let raw = StateOfMindValue.classification(forValence: valence) else { return nil }
        self.init(rawValue: raw)
    }
}

/// Apple's Objective-C names for the nested types (`HKStateOfMindKind` and
/// `HKStateOfMindValenceClassification` are HealthModel's enums themselves, nested above).
public typealias HKStateOfMindLabel = HKStateOfMind.Label
public typealias HKStateOfMindAssociation = HKStateOfMind.Association
