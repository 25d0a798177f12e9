import Testing
@testable import HealthModel

/// Metadata keys against metadata_keys.tsv: raw strings, expected value kinds, and the
/// allowed raw values of enum-valued keys.
@Suite(.timeLimit(.minutes(10))) struct HKMetadataKeyRegistryTests {
    /// For each way the table describes a quantity's unit, a unit this test considers of that
    /// dimension (chosen to differ from the generator's, so both must agree on the dimension).
    static let exampleUnits: [String: String] = [
        "time unit": "min", "time": "hr", "count/min compatible": "Hz", "temperature unit": "degF",
        "percent": "%", "percent (100% grade = 45 degrees)": "%", "length unit": "ft", "length": "mi",
        "speed (e.g. m/s)": "mi/hr", "kcal/(kg*hr)": "J/(g*s)", "dBASPL": "Pa",
        "pressure (atm/Pa/mmHg)": "mmHg", "ml/kg·min": "L/(kg*hr)", "lx": "klx",
    ]

    @Test func everyKeyHasItsTableKind() throws {
        let rows = try SpecTable.load("metadata_keys.tsv")
        #expect(HKMetadataKeyRegistry.predefinedKeys == Set(rows.map { $0["raw_string_value"]! }))
        #expect(HKMetadataKeyRegistry.predefinedKeys.count == rows.count)
        for row in rows {
            let key = row["raw_string_value"]!
            let kind = try #require(HKMetadataKeyRegistry.expectedKind(forKey: key), "\(key)")
            let valueType = row["value_type"]!
            switch kind {
            case .string: #expect(valueType.hasPrefix("string") || valueType.contains("likely string"), "\(key)")
            case .number: #expect(valueType.hasPrefix("number"), "\(key)")
            case .date: #expect(valueType.hasPrefix("date"), "\(key)")
            case .bool: #expect(valueType.hasPrefix("bool"), "\(key)")
            case .quantity(let unit):
                #expect(valueType.hasPrefix("quantity"), "\(key)")
                let description = row["unit_or_enum"]!
                if description == "unit compatible with the sample's quantity" {
                    #expect(unit == nil)
                } else {
                    let example = try HKUnit.parse(try #require(Self.exampleUnits[description], "\(description)"))
                    #expect(unit?.isCompatible(with: example) == true, "\(key)")
                }
            }
        }
    }

    @Test func enumValuedKeysAllowExactlyTheirEnumsRawValues() throws {
        let enumRows = try SpecTable.load("enums.tsv")
        let activityRaws = Set(try SpecTable.load("workout_activity_types.tsv").map { Int($0["raw_value(NSUInteger)"]!)! })
        for row in try SpecTable.load("metadata_keys.tsv") {
            let key = row["raw_string_value"]!
            guard row["value_type"] == "number(enum)" else {
                #expect(HKMetadataKeyRegistry.allowedRawValues(forKey: key) == nil, "\(key)")
                continue
            }
            let enumName = row["unit_or_enum"]!
            let expected = enumName == "HKWorkoutActivityType"
                ? activityRaws
                : Set(enumRows.filter { $0["enum"] == enumName }.map { Int($0["raw_value"]!)! })
            #expect(!expected.isEmpty, "\(enumName)")
            #expect(HKMetadataKeyRegistry.allowedRawValues(forKey: key) == expected, "\(key)")
        }
    }

    @Test func globalsHoldHealthKitsRawStrings() {
        #expect(HKMetadataKeySyncIdentifier == "HKMetadataKeySyncIdentifier")
        #expect(HKMetadataKeySyncVersion == "HKMetadataKeySyncVersion")
        #expect(HKMetadataKeyDeviceSerialNumber == "HKDeviceSerialNumber")
        #expect(HKMetadataKeyCyclingFunctionalThresholdPowerTestType == "HKCyclingCyclingFunctionalThresholdPowerTestType")
        #expect(HKMetadataKeyRegistry.expectedKind(forKey: HKMetadataKeyWasUserEntered) == .bool)
        #expect(HKMetadataKeyRegistry.expectedKind(forKey: HKMetadataKeyInsulinDeliveryReason) == .number)
    }

    @Test func customKeysHaveNoExpectedKind() {
        #expect(HKMetadataKeyRegistry.expectedKind(forKey: "com.example.mood") == nil)
        #expect(!HKMetadataKeyRegistry.isReservedPrefix("com.example.mood"))
        #expect(HKMetadataKeyRegistry.isReservedPrefix("HKMadeUpKey"))
        #expect(HKMetadataKeyRegistry.expectedKind(forKey: "HKMadeUpKey") == nil)
    }
}
