public import Foundation
import HealthModel

/// An object that was deleted, as HealthKit's `HKDeletedObject`: its UUID and, when it had them,
/// its `HKMetadataKeySyncIdentifier` and `HKMetadataKeySyncVersion` (an object replaced by a
/// save with a higher sync version is reported this way).
public final class HKDeletedObject: Sendable, CustomStringConvertible {
    public let uuid: UUID
    private let syncIdentity: SyncIdentity?

    init(record: DeletedObjectRecord) {
        uuid = record.uuid
        syncIdentity = record.syncIdentity
    }

    /// The deleted object's sync identifier and version, or nil when it had none.
    public var metadata: [String: Any]? {
        guard let syncIdentity else { return nil }
        return [HKMetadataKeySyncIdentifier: syncIdentity.identifier,
                HKMetadataKeySyncVersion: NSNumber(value: syncIdentity.version)]
    }

    public var description: String { "HKDeletedObject(\(uuid.uuidString))" }
}
