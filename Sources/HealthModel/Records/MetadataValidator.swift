/// The checks on one sample's metadata: size limits (`SampleLimits`), HealthKit's reserved "HK"
/// prefix, the value kind each predefined key expects, and the sync identifier/version pair.
///
/// Messages name the key and what was expected, never the value: errors reach untrusted apps and
/// logs, and a metadata value may be health data.
enum MetadataValidator {
    /// Sync versions are stored as integers and travel as doubles: only integers a double holds
    /// exactly are accepted.
    static let maximumSyncVersionMagnitude = 9_007_199_254_740_992.0 // 2^53

    /// `sampleUnit` is the sample's own quantity unit, for keys whose quantity must match the
    /// sample's type (`HKMetadataKeySessionEstimate`); nil for category samples.
    static func check(_ metadata: [String: MetadataValue], of type: HKSampleType,
                      sampleType quantityType: HKQuantityType?) throws(HKError) {
        guard metadata.count <= SampleLimits.maximumMetadataEntries else {
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): metadata has \(metadata.count) entries, at most \(SampleLimits.maximumMetadataEntries) are allowed")
        }
        // One registry lookup per key, and the sync pair noticed on the way: every key of every
        // sample of a save or an import passes here, and hashing keys (three lookups per key and
        // two more for the pair) was most of this check's cost (Benchmarks/README.md, "Session 10").
        var hasIdentifier = false
        var hasVersion = false
        for (key, value) in metadata {
            let expected = HKMetadataKeyRegistry.expectedKind(forKey: key)
            try checkKey(key, expected: expected, of: type)
            try checkValue(value, key: key, expected: expected, of: type, sampleType: quantityType)
            if key == HKMetadataKeySyncIdentifier { hasIdentifier = true }
            if key == HKMetadataKeySyncVersion { hasVersion = true }
        }
        if hasIdentifier != hasVersion {
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): \(HKMetadataKeySyncIdentifier) and \(HKMetadataKeySyncVersion) must be given together")
        }
    }

    /// `expected`: the kind the registry expects for `key` (nil for a custom key).
    private static func checkKey(_ key: String, expected: HKMetadataValueKind?, of type: HKSampleType) throws(HKError) {
        guard !key.isEmpty, key.utf8.count <= SampleLimits.maximumMetadataKeyBytes else {
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): metadata keys must have 1 to \(SampleLimits.maximumMetadataKeyBytes) bytes")
        }
        if expected == nil, HKMetadataKeyRegistry.isReservedPrefix(key) {
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): metadata key \(key) uses HealthKit's reserved \"HK\" prefix but is not a predefined key")
        }
    }

    private static func checkValue(_ value: MetadataValue, key: String, expected: HKMetadataValueKind?, of type: HKSampleType,
                                   sampleType quantityType: HKQuantityType?) throws(HKError) {
        // Checks every value, custom keys included: nothing unbounded or non-finite is stored.
        switch value {
        case let .string(string) where string.utf8.count > SampleLimits.maximumMetadataStringBytes:
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): metadata value for \(key) is longer than \(SampleLimits.maximumMetadataStringBytes) bytes")
        case let .number(number) where !number.isFinite:
            throw HKError(.errorInvalidArgument, "\(type.identifier): metadata value for \(key) is not a finite number")
        case let .quantity(number, _) where !number.isFinite:
            throw HKError(.errorInvalidArgument, "\(type.identifier): metadata quantity for \(key) is not a finite number")
        case let .quantity(number, unitString):
            let unit: HKUnit
            do {
                unit = try HKUnit.parse(unitString)
            } catch {
                throw HKError(.errorInvalidArgument, "\(type.identifier): metadata quantity for \(key) has an invalid unit")
            }
            // Finite as written is not enough: 1e308 km is 1e311 m, and 1e308 m is 1e310 cm —
            // infinite for any reader that converts it (a predicate on the key, `doubleValue(for:)`
            // in the app). Held to the amount finite in every valid unit (session 16).
            let bound = UnitExpression.maximumReferenceMagnitude
            guard let reference = try? unit.valueInReferenceUnit(number), reference.magnitude <= bound else {
                throw HKError(.errorInvalidArgument,
                              "\(type.identifier): metadata quantity for \(key) is larger than 10^240 of its dimension's base unit, "
                              + "so it would not be a finite number in every unit")
            }
        case let .date(date) where !SampleLimits.permittedDates.contains(date):
            // The wire carries any Int64 of microseconds (±292,000 years); stored dates stay in
            // the window every other date of a sample lies in.
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): metadata date for \(key) must lie \(SampleLimits.permittedDatesDescription)")
        default:
            break
        }
        guard let expected else { return }
        switch (expected, value) {
        case let (.string, .string(string)) where key == HKMetadataKeySyncIdentifier && string.isEmpty:
            throw HKError(.errorInvalidArgument, "\(type.identifier): \(key) must not be empty")
        case (.string, .string), (.date, .date), (.bool, .bool):
            break
        case let (.bool, .number(number)) where number == 0 || number == 1:
            // An NSNumber holding a Bool arrives as a number from Objective-C style callers.
            break
        case let (.number, .number(number)):
            try checkNumber(number, key: key, of: type)
        case let (.quantity(dimension), .quantity(_, unitString)):
            let unit = HKUnit(from: unitString)
            let reference = dimension ?? quantityType?.canonicalUnit
            guard let reference else {
                throw HKError(.errorInvalidArgument, "\(type.identifier): metadata key \(key) is only allowed on quantity samples")
            }
            guard unit.isCompatible(with: reference) else {
                throw HKError(.errorInvalidArgument,
                              "\(type.identifier): metadata quantity for \(key) has unit \(unitString), expected a unit compatible with \(reference.unitString)")
            }
        default:
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): metadata value for \(key) must be \(describe(expected)), got \(describe(value))")
        }
    }

    private static func checkNumber(_ number: Double, key: String, of type: HKSampleType) throws(HKError) {
        if let allowed = HKMetadataKeyRegistry.allowedRawValues(forKey: key) {
            guard let raw = Int(exactly: number), allowed.contains(raw) else {
                throw HKError(.errorInvalidArgument, "\(type.identifier): metadata value for \(key) is not one of the key's enum raw values")
            }
        }
        if key == HKMetadataKeySyncVersion {
            guard number == number.rounded(), abs(number) <= maximumSyncVersionMagnitude else {
                throw HKError(.errorInvalidArgument, "\(type.identifier): \(key) must be an integer")
            }
        }
    }

    private static func describe(_ kind: HKMetadataValueKind) -> String {
        switch kind {
        case .string: "a string"
        case .number: "a number"
        case .date: "a date"
        case .quantity: "a quantity"
        case .bool: "a bool"
        }
    }

    private static func describe(_ value: MetadataValue) -> String {
        switch value {
        case .string: "a string"
        case .number: "a number"
        case .date: "a date"
        case .quantity: "a quantity"
        case .bool: "a bool"
        }
    }
}
