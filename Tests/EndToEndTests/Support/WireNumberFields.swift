import COpenHealthProto
import HealthWire

/// Every number an app can send, found from the wire's own descriptors rather than listed by
/// hand: the request message of each method of the services on the app socket
/// (protobuf-c's service descriptors for `HealthStore` and `UserPreferencesFeed`), walked
/// through every nested message. A field added to any of them is found here without anyone
/// remembering to add it (`WireNumberJunkEndToEndTests` then refuses to pass until it has a rule).
enum WireNumberFields {
    /// A numeric field of some message, named as `Message.field` (protobuf short names).
    struct Field: Hashable, Comparable, CustomStringConvertible, Sendable {
        let message: String
        let name: String
        let kind: WireNumberKind

        var key: String { "\(message).\(name)" }
        var description: String { key }
        static func < (a: Field, b: Field) -> Bool { a.key < b.key }
    }

    /// The services an app's socket serves, by their protobuf-c descriptors.
    static var appServices: [ProtobufCServiceDescriptor] {
        [openhealth__v1__health_store__descriptor, openhealth__v1__user_preferences_feed__descriptor]
    }

    /// Each app method's gRPC path with its request's and its answer's message descriptors.
    static var appMethods: [(path: String, input: UnsafePointer<ProtobufCMessageDescriptor>,
                             output: UnsafePointer<ProtobufCMessageDescriptor>)] {
        appServices.flatMap { service in
            (0 ..< Int(service.n_methods)).map { index in
                let method = service.methods[index]
                return ("/\(String(cString: service.name))/\(String(cString: method.name))", method.input, method.output)
            }
        }
    }

    /// Every numeric field reachable from any app method's request.
    static var all: Set<Field> {
        var found = Set<Field>()
        var visited = Set<String>()
        for method in appMethods { collect(method.input, into: &found, visited: &visited) }
        return found
    }

    static func collect(_ descriptor: UnsafePointer<ProtobufCMessageDescriptor>, into found: inout Set<Field>,
                        visited: inout Set<String>) {
        let message = String(cString: descriptor.pointee.short_name)
        guard visited.insert(String(cString: descriptor.pointee.name)).inserted else { return }
        for index in 0 ..< Int(descriptor.pointee.n_fields) {
            let field = descriptor.pointee.fields[index]
            if let kind = WireNumberKind(field.type) {
                found.insert(Field(message: message, name: String(cString: field.name), kind: kind))
            } else if field.type == PROTOBUF_C_TYPE_MESSAGE, let nested = field.descriptor {
                collect(nested.assumingMemoryBound(to: ProtobufCMessageDescriptor.self), into: &found, visited: &visited)
            }
        }
    }
}

/// How a numeric field is laid out in protobuf-c's structs.
enum WireNumberKind: Sendable {
    case double, float, int32, uint32, int64, uint64, enumeration

    init?(_ type: ProtobufCType) {
        switch type {
        case PROTOBUF_C_TYPE_DOUBLE: self = .double
        case PROTOBUF_C_TYPE_FLOAT: self = .float
        case PROTOBUF_C_TYPE_INT32, PROTOBUF_C_TYPE_SINT32, PROTOBUF_C_TYPE_SFIXED32: self = .int32
        case PROTOBUF_C_TYPE_UINT32, PROTOBUF_C_TYPE_FIXED32: self = .uint32
        case PROTOBUF_C_TYPE_INT64, PROTOBUF_C_TYPE_SINT64, PROTOBUF_C_TYPE_SFIXED64: self = .int64
        case PROTOBUF_C_TYPE_UINT64, PROTOBUF_C_TYPE_FIXED64: self = .uint64
        case PROTOBUF_C_TYPE_ENUM: self = .enumeration
        default: return nil
        }
    }

    /// The extremes sent in a field of this kind. Floating point: NaN, ±inf, −0, ±1e308, the
    /// largest finite value (finite as written, infinite after almost any unit conversion), the
    /// smallest subnormal, −1 (negative where the quantity cannot be) and 0. Integers: both ends
    /// of the type, −1 and 0.
    var extremes: [WireNumber] {
        switch self {
        case .double, .float:
            [.nan, .infinity, -.infinity, -0.0, 1e308, -1e308, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -1, 0]
                .map(WireNumber.floating)
        case .int32, .enumeration: [Int64(Int32.min), -1, 0, Int64(Int32.max)].map(WireNumber.integer)
        case .uint32: [.unsigned(0), .unsigned(UInt64(UInt32.max))]
        case .int64: [Int64.min, -1, 0, Int64.max].map(WireNumber.integer)
        case .uint64: [.unsigned(0), .unsigned(UInt64.max)]
        }
    }
}

/// A value written into a numeric field.
enum WireNumber: Hashable, Sendable, CustomStringConvertible {
    case floating(Double)
    case integer(Int64)
    case unsigned(UInt64)

    /// The value as a double, for range rules (integers past 2^53 round; the rules' bounds are far from there).
    var double: Double {
        switch self {
        case let .floating(value): value
        case let .integer(value): Double(value)
        case let .unsigned(value): Double(value)
        }
    }

    var description: String {
        switch self {
        case let .floating(value): value == 0 && value.sign == .minus ? "-0.0" : "\(value)"
        case let .integer(value): "\(value)"
        case let .unsigned(value): "\(value)"
        }
    }
}
