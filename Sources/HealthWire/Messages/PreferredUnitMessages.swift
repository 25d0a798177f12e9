import COpenHealthProto
public import HealthModel

// The preferred-unit payloads (proto/openhealth/v1/characteristics.proto).

/// PreferredUnitsRequest: the quantity types an app asks about and its locale's unit system.
public struct PreferredUnitsRequest: WireMessage, Equatable {
    public var typeIdentifiers: [String]
    /// A `MeasurementSystem` raw value; anything else is the broker's to refuse.
    public var measurementSystem: String

    public init(typeIdentifiers: [String], measurementSystem: String) {
        self.typeIdentifiers = typeIdentifiers
        self.measurementSystem = measurementSystem
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__PreferredUnitsRequest.self, from: bytes) { wire in
            PreferredUnitsRequest(typeIdentifiers: WireRead.strings(wire.types, count: wire.n_types),
                                  measurementSystem: WireRead.string(wire.measurement_system))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__PreferredUnitsRequest.initialized()
        wire.n_types = typeIdentifiers.count
        wire.types = arena.strings(typeIdentifiers)
        wire.measurement_system = arena.string(measurementSystem)
        return ProtobufCodec.encode(wire)
    }
}

/// PreferredUnit: one type's unit (an HKUnit string). With an empty unit, SetUnitPreference
/// removes the user's choice for the type.
public struct PreferredUnit: WireMessage, Hashable {
    public var typeIdentifier: String
    public var unit: String

    public init(typeIdentifier: String, unit: String) {
        self.typeIdentifier = typeIdentifier
        self.unit = unit
    }

    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__PreferredUnit.self, from: bytes, Self.read)
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        return ProtobufCodec.encode(build(in: arena).pointee)
    }

    func build(in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__PreferredUnit> {
        arena.message { (wire: inout Openhealth__V1__PreferredUnit) in
            wire.type = arena.string(typeIdentifier)
            wire.unit = arena.string(unit)
        }
    }

    static func read(_ wire: Openhealth__V1__PreferredUnit) -> PreferredUnit {
        PreferredUnit(typeIdentifier: WireRead.string(wire.type), unit: WireRead.string(wire.unit))
    }
}

/// PreferredUnitList: the app's answer, or the user's choices for the manager.
public struct PreferredUnitList: WireMessage, Equatable {
    public var units: [PreferredUnit]

    public init(_ units: [PreferredUnit]) { self.units = units }

    public init(wire bytes: [UInt8]) throws {
        units = try ProtobufCodec.withDecoded(Openhealth__V1__PreferredUnitList.self, from: bytes) { wire in
            WireRead.messages(wire.units, count: wire.n_units).map(PreferredUnit.read)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__PreferredUnitList.initialized()
        let built = units.map { $0.build(in: arena) }
        wire.n_units = built.count
        wire.units = arena.messages(built)
        return ProtobufCodec.encode(wire)
    }
}
