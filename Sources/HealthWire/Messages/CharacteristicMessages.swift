import COpenHealthProto
public import HealthModel

// The characteristic payloads (proto/openhealth/v1/characteristics.proto). An app asks for one
// type with a `TypeIdentifierMessage` (CharacteristicRequest has the same single field).

/// Characteristic: a type and its value, none when unset (or not readable by the asking app).
extension CharacteristicRecord: WireMessage {
    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__Characteristic.self, from: bytes, Self.read)
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        return ProtobufCodec.encode(build(in: arena).pointee)
    }

    func build(in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__Characteristic> {
        arena.message { (wire: inout Openhealth__V1__Characteristic) in
            wire.type = arena.string(typeIdentifier)
            switch value {
            case nil:
                break
            case let .enumeration(raw):
                wire.value_case = OPENHEALTH__V1__CHARACTERISTIC__VALUE_ENUM_VALUE
                wire.enum_value = Int64(raw)
            case let .day(day):
                wire.value_case = OPENHEALTH__V1__CHARACTERISTIC__VALUE_DAY
                wire.day = arena.message { (wireDay: inout Openhealth__V1__CalendarDay) in
                    wireDay.year = Int32(day.year)
                    wireDay.month = Int32(day.month)
                    wireDay.day = Int32(day.day)
                }
            }
        }
    }

    static func read(_ wire: Openhealth__V1__Characteristic) throws(WireDecodeError) -> CharacteristicRecord {
        let type = WireRead.string(wire.type)
        switch wire.value_case {
        case OPENHEALTH__V1__CHARACTERISTIC__VALUE__NOT_SET:
            return CharacteristicRecord(typeIdentifier: type, value: nil)
        case OPENHEALTH__V1__CHARACTERISTIC__VALUE_ENUM_VALUE:
            guard let raw = Int(exactly: wire.enum_value) else { throw .invalidField("characteristic value out of range") }
            return CharacteristicRecord(typeIdentifier: type, value: .enumeration(raw))
        case OPENHEALTH__V1__CHARACTERISTIC__VALUE_DAY:
            guard let day = wire.day?.pointee,
                  let calendarDay = CalendarDay(year: Int(day.year), month: Int(day.month), day: Int(day.day)) else {
                throw .invalidField("characteristic date is not a day of the Gregorian calendar")
            }
            return CharacteristicRecord(typeIdentifier: type, value: .day(calendarDay))
        default:
            throw .invalidField("unknown characteristic value kind")
        }
    }
}

/// CharacteristicList: every characteristic type with its value, for the manager.
public struct CharacteristicList: WireMessage, Equatable {
    public var characteristics: [CharacteristicRecord]

    public init(_ characteristics: [CharacteristicRecord]) { self.characteristics = characteristics }

    public init(wire bytes: [UInt8]) throws {
        characteristics = try ProtobufCodec.withDecoded(Openhealth__V1__CharacteristicList.self, from: bytes) { wire in
            try WireRead.messages(wire.characteristics, count: wire.n_characteristics).map(CharacteristicRecord.read)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__CharacteristicList.initialized()
        let built = characteristics.map { $0.build(in: arena) }
        wire.n_characteristics = built.count
        wire.characteristics = arena.messages(built)
        return ProtobufCodec.encode(wire)
    }
}
