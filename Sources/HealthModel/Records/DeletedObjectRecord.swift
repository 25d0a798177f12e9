public import Foundation

/// An object that was deleted (or replaced by a newer sync version), as anchored queries report
/// it: HealthKit's `HKDeletedObject`. It keeps no dates or values, only what lets an app match it
/// to what it had stored: the UUID and, for a replaced object, its sync identity.
public struct DeletedObjectRecord: Hashable, Sendable {
    public var uuid: UUID
    /// The deleted object's `HKMetadataKeySyncIdentifier` and `HKMetadataKeySyncVersion`, if it had them.
    public var syncIdentity: SyncIdentity?

    public init(uuid: UUID, syncIdentity: SyncIdentity? = nil) {
        self.uuid = uuid
        self.syncIdentity = syncIdentity
    }
}
