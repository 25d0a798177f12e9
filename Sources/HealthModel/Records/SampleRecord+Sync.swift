/// A sample's `HKMetadataKeySyncIdentifier` and `HKMetadataKeySyncVersion`: within one source, a
/// later save with the same identifier and a higher version replaces the earlier sample.
public struct SyncIdentity: Hashable, Sendable {
    public let identifier: String
    public let version: Int64

    public init(identifier: String, version: Int64) {
        self.identifier = identifier
        self.version = version
    }
}

extension SampleRecord {
    /// The sample's sync identity, or nil when its metadata has no (valid) pair. Meaningful after
    /// `SampleValidator` accepted the record: it rejects a half pair or a non-integral version.
    public var syncIdentity: SyncIdentity? {
        guard case let .string(identifier)? = metadata[HKMetadataKeySyncIdentifier],
              case let .number(version)? = metadata[HKMetadataKeySyncVersion],
              let integral = Int64(exactly: version) else { return nil }
        return SyncIdentity(identifier: identifier, version: integral)
    }
}
