import COpenHealthProto

/// AppStorage: one app's storage use and limit (StorageQuota), in ListAppsResponse and as
/// SetAppStorageLimit's answer.
public struct AppStorageEntry: WireMessage, Equatable, Sendable {
    public var appID: String
    public var usedBytes: Int64
    public var limitBytes: Int64
    /// No limit of the app's own: the default applies.
    public var isDefaultLimit: Bool

    public init(appID: String, usedBytes: Int64, limitBytes: Int64, isDefaultLimit: Bool) {
        self.appID = appID
        self.usedBytes = usedBytes
        self.limitBytes = limitBytes
        self.isDefaultLimit = isDefaultLimit
    }

    init(_ wire: Openhealth__V1__AppStorage) {
        self.init(appID: WireRead.string(wire.app_id), usedBytes: Int64(clamping: wire.used_bytes),
                  limitBytes: Int64(clamping: wire.limit_bytes), isDefaultLimit: wire.default_limit != 0)
    }

    func fill(_ wire: inout Openhealth__V1__AppStorage, _ arena: WireArena) {
        wire.app_id = arena.string(appID)
        wire.used_bytes = UInt64(clamping: usedBytes)
        wire.limit_bytes = UInt64(clamping: limitBytes)
        wire.default_limit = isDefaultLimit ? 1 : 0
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__AppStorage.self, from: bytes) { AppStorageEntry($0) }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__AppStorage.initialized()
        fill(&wire, arena)
        return ProtobufCodec.encode(wire)
    }
}

/// SetAppStorageLimitRequest: `limitBytes` for `appID`, nil for the default.
public struct AppStorageLimitSetting: WireMessage, Equatable, Sendable {
    public var appID: String
    public var limitBytes: Int64?

    public init(appID: String, limitBytes: Int64?) {
        self.appID = appID
        self.limitBytes = limitBytes
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__SetAppStorageLimitRequest.self, from: bytes) { wire in
            AppStorageLimitSetting(appID: WireRead.string(wire.app_id),
                                   limitBytes: wire.use_default != 0 ? nil : Int64(clamping: wire.limit_bytes))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__SetAppStorageLimitRequest.initialized()
        wire.app_id = arena.string(appID)
        wire.limit_bytes = UInt64(clamping: max(0, limitBytes ?? 0))
        wire.use_default = limitBytes == nil ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}
