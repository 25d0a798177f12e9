import COpenHealthProto
import Foundation
import HealthModel

/// Conversion of the device, metadata, quantity and category predicate nodes
/// (proto/openhealth/v1/sample_predicates.proto); `PredicateWire` dispatches to it.
enum ValuePredicateWire {
    // MARK: Building

    static func device(_ property: DeviceProperty, _ allowed: Set<String>,
                       in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__DevicePredicate> {
        arena.message { (node: inout Openhealth__V1__DevicePredicate) in
            node.property = deviceProperties[property]!
            node.n_allowed_values = allowed.count
            node.allowed_values = arena.strings(allowed.sorted())
        }
    }

    static func metadata(_ key: String, _ test: MetadataTest, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__MetadataPredicate> {
        arena.message { (node: inout Openhealth__V1__MetadataPredicate) in
            node.key = arena.string(key)
            switch test {
            case .exists:
                node.test = OPENHEALTH__V1__METADATA_TEST__METADATA_TEST_EXISTS
            case let .oneOf(values):
                node.test = OPENHEALTH__V1__METADATA_TEST__METADATA_TEST_ONE_OF
                let built = values.map { operand($0, in: arena) }
                node.n_allowed_values = built.count
                node.allowed_values = arena.messages(built)
            case let .compare(op, value):
                node.test = OPENHEALTH__V1__METADATA_TEST__METADATA_TEST_COMPARE
                node.operator_ = wireOperator(op)
                node.value = operand(value, in: arena)
            }
        }
    }

    static func quantity(_ op: ComparisonOperator, _ value: Double, _ unit: String,
                         in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__QuantityPredicate> {
        arena.message { (node: inout Openhealth__V1__QuantityPredicate) in
            node.operator_ = wireOperator(op)
            node.quantity = predicateQuantity(value, unit, in: arena)
        }
    }

    static func category(_ op: ComparisonOperator, _ value: Int, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__CategoryPredicate> {
        arena.message { (node: inout Openhealth__V1__CategoryPredicate) in
            node.operator_ = wireOperator(op)
            node.value = Int64(value)
        }
    }

    private static func operand(_ value: MetadataValue, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__MetadataOperand> {
        arena.message { (wire: inout Openhealth__V1__MetadataOperand) in
            switch value {
            case let .string(string):
                wire.value_case = OPENHEALTH__V1__METADATA_OPERAND__VALUE_STRING_VALUE
                wire.string_value = arena.string(string)
            case let .number(number):
                wire.value_case = OPENHEALTH__V1__METADATA_OPERAND__VALUE_NUMBER_VALUE
                wire.number_value = number
            case let .date(date):
                wire.value_case = OPENHEALTH__V1__METADATA_OPERAND__VALUE_DATE_US
                wire.date_us = date.microsecondsSince1970
            case let .quantity(number, unit):
                wire.value_case = OPENHEALTH__V1__METADATA_OPERAND__VALUE_QUANTITY_VALUE
                wire.quantity_value = predicateQuantity(number, unit, in: arena)
            case let .bool(bool):
                wire.value_case = OPENHEALTH__V1__METADATA_OPERAND__VALUE_BOOL_VALUE
                wire.bool_value = bool ? 1 : 0
            }
        }
    }

    private static func predicateQuantity(_ value: Double, _ unit: String,
                                          in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__PredicateQuantity> {
        arena.message { (wire: inout Openhealth__V1__PredicateQuantity) in
            wire.value = value
            wire.unit = arena.string(unit)
        }
    }

    private static let operators: [ComparisonOperator: Openhealth__V1__ComparisonOperator] = [
        .lessThan: OPENHEALTH__V1__COMPARISON_OPERATOR__COMPARISON_OPERATOR_LESS_THAN,
        .lessThanOrEqualTo: OPENHEALTH__V1__COMPARISON_OPERATOR__COMPARISON_OPERATOR_LESS_THAN_OR_EQUAL,
        .greaterThan: OPENHEALTH__V1__COMPARISON_OPERATOR__COMPARISON_OPERATOR_GREATER_THAN,
        .greaterThanOrEqualTo: OPENHEALTH__V1__COMPARISON_OPERATOR__COMPARISON_OPERATOR_GREATER_THAN_OR_EQUAL,
        .equalTo: OPENHEALTH__V1__COMPARISON_OPERATOR__COMPARISON_OPERATOR_EQUAL,
        .notEqualTo: OPENHEALTH__V1__COMPARISON_OPERATOR__COMPARISON_OPERATOR_NOT_EQUAL,
    ]

    private static let deviceProperties: [DeviceProperty: Openhealth__V1__DeviceProperty] = [
        .name: OPENHEALTH__V1__DEVICE_PROPERTY__DEVICE_PROPERTY_NAME,
        .manufacturer: OPENHEALTH__V1__DEVICE_PROPERTY__DEVICE_PROPERTY_MANUFACTURER,
        .model: OPENHEALTH__V1__DEVICE_PROPERTY__DEVICE_PROPERTY_MODEL,
        .hardwareVersion: OPENHEALTH__V1__DEVICE_PROPERTY__DEVICE_PROPERTY_HARDWARE_VERSION,
        .firmwareVersion: OPENHEALTH__V1__DEVICE_PROPERTY__DEVICE_PROPERTY_FIRMWARE_VERSION,
        .softwareVersion: OPENHEALTH__V1__DEVICE_PROPERTY__DEVICE_PROPERTY_SOFTWARE_VERSION,
        .localIdentifier: OPENHEALTH__V1__DEVICE_PROPERTY__DEVICE_PROPERTY_LOCAL_IDENTIFIER,
        .udiDeviceIdentifier: OPENHEALTH__V1__DEVICE_PROPERTY__DEVICE_PROPERTY_UDI_DEVICE_IDENTIFIER,
    ]

    static func wireOperator(_ op: ComparisonOperator) -> Openhealth__V1__ComparisonOperator {
        operators[op]!
    }

    // MARK: Reading

    static func readDevice(_ node: Openhealth__V1__DevicePredicate?) throws(WireDecodeError) -> SamplePredicate {
        guard let node else { throw .invalidField("device predicate missing") }
        guard let property = deviceProperties.first(where: { $0.value == node.property })?.key else {
            throw .invalidField("unknown device property")
        }
        return .device(property,
                       allowedValues: Set(WireRead.strings(node.allowed_values, count: node.n_allowed_values)))
    }

    static func readMetadata(_ node: Openhealth__V1__MetadataPredicate?) throws(WireDecodeError) -> SamplePredicate {
        guard let node else { throw .invalidField("metadata predicate missing") }
        let key = WireRead.string(node.key)
        switch node.test {
        case OPENHEALTH__V1__METADATA_TEST__METADATA_TEST_EXISTS:
            return .metadata(key: key, .exists)
        case OPENHEALTH__V1__METADATA_TEST__METADATA_TEST_ONE_OF:
            let values = try WireRead.messages(node.allowed_values, count: node.n_allowed_values).map(readOperand)
            return .metadata(key: key, .oneOf(values))
        case OPENHEALTH__V1__METADATA_TEST__METADATA_TEST_COMPARE:
            guard let value = node.value?.pointee else { throw .invalidField("metadata comparison has no value") }
            return .metadata(key: key, .compare(try readOperator(node.operator_), try readOperand(value)))
        default:
            throw .invalidField("unknown metadata test")
        }
    }

    static func readQuantity(_ node: Openhealth__V1__QuantityPredicate?) throws(WireDecodeError) -> SamplePredicate {
        guard let node, let quantity = node.quantity?.pointee else { throw .invalidField("quantity predicate missing its quantity") }
        return .quantity(try readOperator(node.operator_), value: quantity.value, unit: WireRead.string(quantity.unit))
    }

    static func readCategory(_ node: Openhealth__V1__CategoryPredicate?) throws(WireDecodeError) -> SamplePredicate {
        guard let node else { throw .invalidField("category predicate missing") }
        guard let value = Int(exactly: node.value) else { throw .invalidField("category value out of range") }
        return .categoryValue(try readOperator(node.operator_), value)
    }

    private static func readOperand(_ wire: Openhealth__V1__MetadataOperand) throws(WireDecodeError) -> MetadataValue {
        switch wire.value_case {
        case OPENHEALTH__V1__METADATA_OPERAND__VALUE_STRING_VALUE: return .string(WireRead.string(wire.string_value))
        case OPENHEALTH__V1__METADATA_OPERAND__VALUE_NUMBER_VALUE: return .number(wire.number_value)
        case OPENHEALTH__V1__METADATA_OPERAND__VALUE_DATE_US: return .date(Date(microsecondsSince1970: wire.date_us))
        case OPENHEALTH__V1__METADATA_OPERAND__VALUE_BOOL_VALUE: return .bool(wire.bool_value != 0)
        case OPENHEALTH__V1__METADATA_OPERAND__VALUE_QUANTITY_VALUE:
            guard let quantity = wire.quantity_value?.pointee else { throw .invalidField("metadata operand quantity missing") }
            return .quantity(value: quantity.value, unit: WireRead.string(quantity.unit))
        default:
            throw .invalidField("metadata operand has no value")
        }
    }

    static func readOperator(_ wire: Openhealth__V1__ComparisonOperator) throws(WireDecodeError) -> ComparisonOperator {
        guard let op = operators.first(where: { $0.value == wire })?.key else { throw .invalidField("unknown comparison operator") }
        return op
    }
}
