import COpenHealthProto
public import Foundation
public import HealthModel

// The payloads of background delivery (proto/openhealth/v1/background.proto).

/// BackgroundDeliveryRequest: `enableBackgroundDelivery(for:frequency:)` and
/// `disableBackgroundDelivery(for:)` (which sends no frequency).
public struct BackgroundDeliverySpec: WireMessage, Equatable {
    public var typeIdentifier: String
    /// Nil in a disable request.
    public var frequency: HKUpdateFrequency?

    public init(typeIdentifier: String, frequency: HKUpdateFrequency?) {
        self.typeIdentifier = typeIdentifier
        self.frequency = frequency
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__BackgroundDeliveryRequest.self, from: bytes) { wire in
            BackgroundDeliverySpec(typeIdentifier: WireRead.string(wire.type),
                                   frequency: try BackgroundRegistrationWire.frequency(wire.frequency, absentAllowed: true))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__BackgroundDeliveryRequest.initialized()
        wire.type = arena.string(typeIdentifier)
        wire.frequency = UInt32(frequency?.rawValue ?? 0)
        return ProtobufCodec.encode(wire)
    }
}

/// ListBackgroundDeliveriesRequest: one app's registrations, or every app's (nil).
public struct BackgroundRegistrationQuery: WireMessage, Equatable {
    public var appID: String?

    public init(appID: String?) { self.appID = appID }

    public init(wire bytes: [UInt8]) throws {
        let appID = try ProtobufCodec.withDecoded(Openhealth__V1__ListBackgroundDeliveriesRequest.self, from: bytes) {
            WireRead.string($0.app_id)
        }
        self.appID = appID.isEmpty ? nil : appID
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ListBackgroundDeliveriesRequest.initialized()
        wire.app_id = arena.string(appID ?? "")
        return ProtobufCodec.encode(wire)
    }
}

/// ListBackgroundDeliveriesResponse.
public struct BackgroundRegistrationList: WireMessage, Equatable {
    public var registrations: [BackgroundDeliveryRegistration]

    public init(_ registrations: [BackgroundDeliveryRegistration]) { self.registrations = registrations }

    public init(wire bytes: [UInt8]) throws {
        registrations = try ProtobufCodec.withDecoded(Openhealth__V1__ListBackgroundDeliveriesResponse.self, from: bytes) { wire in
            try WireRead.messages(wire.registrations, count: wire.n_registrations).map(BackgroundRegistrationWire.read)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ListBackgroundDeliveriesResponse.initialized()
        let built = registrations.map { BackgroundRegistrationWire.build($0, in: arena) }
        wire.n_registrations = built.count
        wire.registrations = arena.messages(built)
        return ProtobufCodec.encode(wire)
    }
}

/// LaunchRequest: what healthd asks `health-sandbox agent` to start.
public struct LaunchRequest: WireMessage, Equatable {
    public var requestID: UInt64
    public var appID: String
    public var executable: String
    public var typeIdentifiers: [String]

    public init(requestID: UInt64, appID: String, executable: String, typeIdentifiers: [String]) {
        self.requestID = requestID
        self.appID = appID
        self.executable = executable
        self.typeIdentifiers = typeIdentifiers
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__LaunchRequest.self, from: bytes) { wire in
            LaunchRequest(requestID: wire.request_id, appID: WireRead.string(wire.app_id),
                          executable: WireRead.string(wire.executable),
                          typeIdentifiers: WireRead.strings(wire.types, count: wire.n_types))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__LaunchRequest.initialized()
        wire.request_id = requestID
        wire.app_id = arena.string(appID)
        wire.executable = arena.string(executable)
        wire.n_types = typeIdentifiers.count
        wire.types = arena.strings(typeIdentifiers)
        return ProtobufCodec.encode(wire)
    }
}

/// Conversion between `BackgroundDeliveryRegistration` and its generated struct.
enum BackgroundRegistrationWire {
    static func build(_ registration: BackgroundDeliveryRegistration, in arena: WireArena)
        -> UnsafeMutablePointer<Openhealth__V1__BackgroundDeliveryRegistration> {
        arena.message { (wire: inout Openhealth__V1__BackgroundDeliveryRegistration) in
            wire.app_id = arena.string(registration.appID)
            wire.type = arena.string(registration.typeIdentifier)
            wire.frequency = UInt32(registration.frequency.rawValue)
            wire.enabled_us = registration.enabledDate.microsecondsSince1970
        }
    }

    static func read(_ wire: Openhealth__V1__BackgroundDeliveryRegistration) throws(WireDecodeError) -> BackgroundDeliveryRegistration {
        guard let frequency = try frequency(wire.frequency, absentAllowed: false) else {
            throw .invalidField("a registration needs a frequency")
        }
        return BackgroundDeliveryRegistration(appID: WireRead.string(wire.app_id), typeIdentifier: WireRead.string(wire.type),
                                              frequency: frequency, enabledDate: Date(microsecondsSince1970: wire.enabled_us))
    }

    /// HKUpdateFrequency from its raw value; 0 is "none given".
    static func frequency(_ raw: UInt32, absentAllowed: Bool) throws(WireDecodeError) -> HKUpdateFrequency? {
        if raw == 0, absentAllowed { return nil }
        guard let frequency = HKUpdateFrequency(rawValue: Int(raw)) else {
            throw .invalidField("frequency must be an HKUpdateFrequency raw value (1 immediate, 2 hourly, 3 daily, 4 weekly), not \(raw)")
        }
        return frequency
    }
}
