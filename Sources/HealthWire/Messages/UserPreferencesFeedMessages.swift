import COpenHealthProto

// The user's preferences feed (proto/openhealth/v1/preferences_feed.proto).

/// UserPreferencesFeedRequest: empty; the app's identity is the connection's.
public struct UserPreferencesFeedRequest: WireMessage, Equatable {
    public init() {}
    public init(wire bytes: [UInt8]) throws {
        try ProtobufCodec.withDecoded(Openhealth__V1__UserPreferencesFeedRequest.self, from: bytes) { _ in () }
    }
    public func wireBytes() -> [UInt8] { [] }
}

/// UserPreferencesUpdate: sequence 0 says the feed is open, each later one that the user changed
/// a preference the app may read. No type, no unit.
public struct UserPreferencesUpdate: WireMessage, Equatable {
    public var sequence: UInt64

    public init(sequence: UInt64) {
        self.sequence = sequence
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__UserPreferencesUpdate.self, from: bytes) { wire in
            UserPreferencesUpdate(sequence: wire.sequence)
        }
    }

    public func wireBytes() -> [UInt8] {
        var wire = Openhealth__V1__UserPreferencesUpdate.initialized()
        wire.sequence = sequence
        return ProtobufCodec.encode(wire)
    }
}
