public import Foundation

/// How the model's and the SDK's `NSSecureCoding` classes read a field, in one place.
///
/// swift-corelibs-foundation's `decodeObject(of:forKey:)` on an absent key records a decoding
/// error, and an unarchiver made directly (failure policy `.raiseException`) then traps; asking
/// `containsValue(forKey:)` first keeps a short or tampered archive a decoding failure (nil), as
/// Apple's secure decoding makes it. Every field is written as a string, number or data object
/// (never as a plain `encode(Double)` value, which `decodeObject` cannot tell from tampering and
/// traps on), and no class archives another of its own kind nested inside: corelibs traps
/// (`_isClassAllowed` calls `fatalError`) when a nested object's class is not the one asked for,
/// before any of this code runs, so nesting would let a tampered archive take the app down.
extension NSCoder {
    /// `.some(nil)` when the key is absent (the property was nil when archived), nil when the key
    /// holds something other than a string (a tampered archive), else the string.
    package func decodeOptionalString(forKey key: String) -> String?? {
        guard containsValue(forKey: key) else { return .some(nil) }
        return decodeObject(of: NSString.self, forKey: key).map { String($0) }
    }

    /// The string under `key`, nil when it is absent or not a string.
    package func decodeRequiredString(forKey key: String) -> String? {
        decodeOptionalString(forKey: key) ?? nil
    }

    /// The number under `key` (written as an `NSNumber` object), nil when it is absent or not a
    /// number.
    package func decodeRequiredNumber(forKey key: String) -> NSNumber? {
        guard containsValue(forKey: key) else { return nil }
        return decodeObject(of: NSNumber.self, forKey: key)
    }

    /// The bytes under `key` (written as an `NSData` object), nil when absent or not data.
    package func decodeRequiredData(forKey key: String) -> Data? {
        guard containsValue(forKey: key) else { return nil }
        return decodeObject(of: NSData.self, forKey: key).map { Data($0) }
    }
}

extension NSCoder {
    /// The whole number under `key`, nil when it is absent, not a number, or not a whole number
    /// an `Int` holds. Read through `doubleValue` so that a tampered archive holding 1e300 or
    /// 2.5 fails here instead of being truncated or converted to an arbitrary whole number (what
    /// `intValue` gives, with no way to tell); the values read this way (raw values, counts)
    /// are far below 2^53, where a double is exact.
    package func decodeRequiredInt(forKey key: String) -> Int? {
        decodeRequiredNumber(forKey: key).flatMap { Int(exactly: $0.doubleValue) }
    }

    /// The finite number under `key`, nil when it is absent, not a number, NaN or infinite.
    package func decodeRequiredFiniteDouble(forKey key: String) -> Double? {
        decodeRequiredNumber(forKey: key).map(\.doubleValue).flatMap { $0.isFinite ? $0 : nil }
    }
}

/// A quantity inside another class's archive: its unit's text under `key.unit` and its value as
/// written under `key.value` — flat fields, never a nested `HKQuantity` object (see above).
extension NSCoder {
    package func encodeQuantity(_ quantity: HKQuantity?, forKey key: String) {
        guard let quantity else { return }
        encode(NSString(string: quantity.unit.unitString), forKey: key + ".unit")
        encode(NSNumber(value: quantity.doubleValue(for: quantity.unit)), forKey: key + ".value")
    }

    /// `.some(nil)` when neither field is there (the quantity was nil), nil when either is
    /// missing or mistyped, the unit's text does not parse, the value is not finite, or the unit
    /// cannot convert to `dimension` (a tampered archive cannot give a distance where a
    /// mass belongs); else the quantity as written.
    package func decodeOptionalQuantity(forKey key: String, compatibleWith dimension: HKUnit) -> HKQuantity?? {
        guard containsValue(forKey: key + ".unit") || containsValue(forKey: key + ".value") else { return .some(nil) }
        guard let text = decodeRequiredString(forKey: key + ".unit"),
              let unit = try? HKUnit.parse(text), unit.isCompatible(with: dimension),
              let value = decodeRequiredFiniteDouble(forKey: key + ".value") else { return nil }
        return .some(HKQuantity(unit: unit, doubleValue: value))
    }

    /// As `decodeOptionalQuantity`, but an absent quantity is a failure too.
    package func decodeRequiredQuantity(forKey key: String, compatibleWith dimension: HKUnit) -> HKQuantity? {
        decodeOptionalQuantity(forKey: key, compatibleWith: dimension) ?? nil
    }
}
