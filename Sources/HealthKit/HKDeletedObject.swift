public import Foundation
import HealthModel

/// An object that was deleted, as HealthKit's `HKDeletedObject`: its UUID and, when it had them,
/// its `HKMetadataKeySyncIdentifier` and `HKMetadataKeySyncVersion` (an object replaced by a
/// save with a higher sync version is reported this way).
///
/// An `NSObject` with `NSSecureCoding`, as Apple's, so an app can persist the deletions it has
/// yet to apply beside its anchor: the archive holds the UUID's text and the sync identifier and
/// version as flat fields. Equality stays NSObject's identity, as before (Apple documents none).
public final class HKDeletedObject: NSObject, NSSecureCoding, Sendable {
    public let uuid: UUID
    private let syncIdentity: SyncIdentity?

    init(record: DeletedObjectRecord) {
        uuid = record.uuid
        syncIdentity = record.syncIdentity
        super.init()
    }

    /// The deleted object's sync identifier and version, or nil when it had none.
    public var metadata: [String: Any]? {
        guard let syncIdentity else { return nil }
        return [HKMetadataKeySyncIdentifier: syncIdentity.identifier,
                HKMetadataKeySyncVersion: NSNumber(value: syncIdentity.version)]
    }

    public override var description: String { "HKDeletedObject(\(uuid.uuidString))" }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let uuidKey = "uuid"
    private static let syncIdentifierKey = "syncIdentifier"
    private static let syncVersionKey = "syncVersion"

    public func encode(with coder: NSCoder) {
        coder.encode(NSString(string: uuid.uuidString), forKey: Self.uuidKey)
        if let syncIdentity {
            coder.encode(NSString(string: syncIdentity.identifier), forKey: Self.syncIdentifierKey)
            coder.encode(NSNumber(value: syncIdentity.version), forKey: Self.syncVersionKey)
        }
    }

    /// Fails (nil, as secure decoding does) when the UUID is missing or not a UUID's text, or a
    /// sync identifier or version is present without the other or mistyped.
    public required convenience init?(coder: NSCoder) {
        guard let uuid = coder.decodeRequiredString(forKey: Self.uuidKey).flatMap(UUID.init(uuidString:)) else { return nil }
        var syncIdentity: SyncIdentity?
        if coder.containsValue(forKey: Self.syncIdentifierKey) || coder.containsValue(forKey: Self.syncVersionKey) {
            guard let identifier = coder.decodeRequiredString(forKey: Self.syncIdentifierKey),
                  let version = coder.decodeRequiredNumber(forKey: Self.syncVersionKey),
                  // int64Value truncates 2.5 and wraps 1e300; only a whole number that fits is a version.
                  NSNumber(value: version.int64Value).isEqual(to: version) else { return nil }
            syncIdentity = SyncIdentity(identifier: identifier, version: version.int64Value)
        }
        self.init(record: DeletedObjectRecord(uuid: uuid, syncIdentity: syncIdentity))
    }
}
