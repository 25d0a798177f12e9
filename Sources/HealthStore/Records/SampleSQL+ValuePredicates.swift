import GRDB
import HealthModel

/// SQL for the device, metadata, quantity and category predicates. Every condition is 0 or 1,
/// never NULL, so that NOT(…) means what `SamplePredicate.matches` says it means.
extension SampleSQL {
    /// `device_id` in the devices with `property` set to one of `allowed` (bound values; the
    /// column name comes from a fixed table).
    static func deviceCondition(_ property: DeviceProperty, _ allowed: Set<String>) -> (sql: String, arguments: StatementArguments) {
        guard !allowed.isEmpty else { return ("0", []) }
        let list = allowed.sorted()
        // Correlated, per visible row by the device's key, and the allowed values as one bound
        // JSON list: `o.device_id IN (SELECT id FROM devices WHERE …)` scanned every device of
        // the store first — those only hidden samples name too — so its cost grew with them.
        guard let column = deviceColumns[property] else { return ("0", []) }
        return ("""
            EXISTS (SELECT 1 FROM devices dv WHERE dv.id = o.device_id \
            AND dv.\(column) IN (SELECT value FROM json_each(?)))
            """, [jsonArray(list)])
    }

    private static let deviceColumns: [DeviceProperty: String] = [
        .name: "name", .manufacturer: "manufacturer", .model: "model", .hardwareVersion: "hardware_version",
        .firmwareVersion: "firmware_version", .softwareVersion: "software_version",
        .localIdentifier: "local_identifier", .udiDeviceIdentifier: "udi_device_identifier",
    ]

    /// Metadata is a JSON object of key → tagged value (`MetadataCoding`: `{"n":{"_0":5}}`);
    /// `json_each` finds the key as a bound value, so no key is ever spliced into a JSON path.
    static func metadataCondition(_ key: String, _ test: MetadataTest) -> (sql: String, arguments: StatementArguments) {
        var arguments: StatementArguments = [key]
        var condition = "key = ?"
        switch test {
        case .exists:
            break
        case let .oneOf(values):
            guard !values.isEmpty else { return ("0", []) }
            let parts = values.map { value in
                let compared = comparison(.equalTo, value)
                arguments += compared.arguments
                return "(\(compared.sql))"
            }
            condition += " AND (\(parts.joined(separator: " OR ")))"
        case let .compare(.notEqualTo, value):
            // "Not equal" matches when no entry under the key equals the value: an absent key,
            // no metadata at all, or a value of another kind (MetadataTest.matches).
            let compared = comparison(.equalTo, value)
            return ("NOT EXISTS (SELECT 1 FROM json_each(o.metadata) WHERE key = ? AND \(compared.sql))",
                    arguments + compared.arguments)
        case let .compare(op, value):
            let compared = comparison(op, value)
            condition += " AND \(compared.sql)"
            arguments += compared.arguments
        }
        return ("EXISTS (SELECT 1 FROM json_each(o.metadata) WHERE \(condition))", arguments)
    }

    /// The tagged value in json_each's `value` column compared with `operand`. A value of
    /// another kind has no such path, so the comparison is NULL and the row does not match.
    private static func comparison(_ op: ComparisonOperator, _ operand: MetadataValue) -> (sql: String, arguments: StatementArguments) {
        let sign = op.sqlOperator
        switch operand {
        case let .string(string): return ("json_extract(value, '$.s._0') \(sign) ?", [string])
        case let .number(number): return ("json_extract(value, '$.n._0') \(sign) ?", [number])
        case let .date(date): return ("json_extract(value, '$.d._0') \(sign) ?", [date.microsecondsSince1970])
        case let .bool(bool): return ("json_extract(value, '$.b._0') \(sign) ?", [bool ? 1 : 0])
        case let .quantity(number, unit):
            return ("\(quantityConversion.name)(json_extract(value, '$.q._0'), json_extract(value, '$.q._1'), ?) \(sign) ?",
                    [unit, number])
        }
    }

    /// `openhealth_quantity_in(value, unit, target)`: `value` in `unit` converted to `target`,
    /// NULL when either unit is invalid or they measure different things. Registered on every
    /// store connection (`CipherDatabaseOpener`), for metadata quantities, which keep the unit
    /// the app saved them in.
    static let quantityConversion = DatabaseFunction("openhealth_quantity_in", argumentCount: 3, pure: true) { values in
        guard let value = Double.fromDatabaseValue(values[0]), let unit = String.fromDatabaseValue(values[1]),
              let target = String.fromDatabaseValue(values[2]),
              let converted = try? HKQuantity(unit: HKUnit.parse(unit), doubleValue: value).value(in: HKUnit.parse(target))
        else { return nil }
        return converted
    }
}
