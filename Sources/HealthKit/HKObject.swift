public import Foundation
import Synchronization

/// The root of everything stored, as HealthKit's `HKObject`: a UUID, the source that saved it,
/// an optional device and metadata. Immutable, except that saving replaces `uuid` (below).
///
/// An `NSObject` with `NSSecureCoding`, as Apple's: equality is the UUID (below), and an archive
/// holds the whole object (`ArchivedSample`).
///
/// `@unchecked Sendable`: `NSObject` is not `Sendable` on Linux and the class is open to this
/// module's subclasses, which the compiler cannot check; every stored property of every subclass
/// is a `let` of a Sendable value, and the one thing that changes, the UUID, sits behind a mutex.
public class HKObject: NSObject, NSSecureCoding, @unchecked Sendable {
    /// Until the object is saved, a random UUID made on this side (so unsaved objects can be
    /// told apart). The broker assigns the real UUID (version 7, its time field the object's
    /// start date) when it stores the object;
    /// a successful `save` writes it back here, which is why this is the one mutable property.
    public var uuid: UUID { assignedUUID.withLock { $0 } }
    private let assignedUUID: Mutex<UUID>

    public let device: HKDevice?

    /// The metadata as HealthKit hands it out: String, NSNumber (numbers and Bools), Date or
    /// HKQuantity values. Entries that could not be converted are left out; saving such an
    /// object fails with the conversion's error (see `metadataError`).
    public var metadata: [String: Any]? { metadataValues?.mapValues(\.anyValue) }

    /// The metadata as wire values; nil when the object was made without metadata.
    let metadataValues: [String: MetadataValue]?
    /// Why part of the metadata given at creation cannot be stored; `save` throws it.
    /// HealthKit raises an Objective-C exception at creation instead, which Swift cannot catch.
    let metadataError: HKError?

    /// Who saved the object. Set from the broker's record for fetched objects. For an object
    /// made here and not fetched back, the SDK cannot know the app identity the broker will
    /// record (it comes from the connection, never from the app), so it describes the current
    /// process by name with an empty bundle identifier.
    public var sourceRevision: HKSourceRevision { fetchedSource ?? Self.unsavedSource }
    private let fetchedSource: HKSourceRevision?

    /// Who saved the object, as HealthKit had it before iOS 9 (developer.apple.com/documentation/healthkit/hkobject/source):
    /// `sourceRevision.source`. Deprecated as Apple's is, so ported code compiles with a warning.
    @available(*, deprecated, message: "Use sourceRevision")
    public var source: HKSource { sourceRevision.source }

    private static let unsavedSource = HKSourceRevision(
        source: HKSource(name: ProcessInfo.processInfo.processName, bundleIdentifier: ""), version: nil)

    /// An object made by the app: metadata is converted now, and any failure kept for `save`.
    init(metadata: [String: Any]?, device: HKDevice?) {
        assignedUUID = Mutex(RandomUUID.make())
        self.device = device
        fetchedSource = nil
        (metadataValues, metadataError) = MetadataConversion.convert(metadata)
        super.init()
    }

    /// An object fetched from the broker, already in wire form; its device and source are
    /// shared with the answer's other objects that have the same (`FetchedObjectParts`).
    init(fetched uuid: UUID, metadata: [String: MetadataValue], device: DeviceRecord?, source: SourceRecord?,
         parts: FetchedObjectParts) {
        assignedUUID = Mutex(uuid)
        self.device = parts.device(device)
        metadataValues = metadata.isEmpty ? nil : metadata
        metadataError = nil
        fetchedSource = parts.sourceRevision(source)
        super.init()
    }

    /// A plain fetched object (no metadata) whose device and source revision are already the
    /// answer's shared ones (`HKSample.fetched(_:sharing:)` for a `FetchedSampleBatch`).
    init(fetched uuid: UUID, device: HKDevice?, sourceRevision: HKSourceRevision?) {
        assignedUUID = Mutex(uuid)
        self.device = device
        metadataValues = nil
        metadataError = nil
        fetchedSource = sourceRevision
        super.init()
    }

    // MARK: NSSecureCoding (the archive's format: HKObject+Coding.swift)

    public class var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        guard let sample = self as? HKSample else { return }
        ArchivedSample.encode(sample, with: coder)
    }

    /// Every object is an instance of a subclass, whose own `init?(coder:)` reads the archive;
    /// none is a bare `HKObject`, so an archive naming this class decodes as nothing.
    public required init?(coder: NSCoder) {
        return nil
    }

    // MARK: Equality (NSObject's, so ==, Set and Dictionary use it too)

    /// HealthKit's objects are equal when their UUIDs are: two fetches of the same stored sample
    /// are equal, a `Set` of fetched samples holds each stored object once, and `contains` finds
    /// a sample fetched again (issue 15, item 3).
    ///
    /// One difference Linux forces: HealthKit keeps the UUID an object was created with, while
    /// here the broker assigns every stored object's UUID (so identifiers share no state across
    /// apps and never reveal a hidden object, SECURITY.md) and `save` writes it back. An unsaved
    /// object kept in a `Set` across its own save is therefore found under its old UUID no more —
    /// put objects in sets after saving them, or fetched ones.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKObject)?.uuid == uuid
    }

    public override var hash: Int { uuid.hashValue }

    /// Records the UUID the broker assigned on save.
    func assignBrokerUUID(_ uuid: UUID) {
        assignedUUID.withLock { $0 = uuid }
    }
}
