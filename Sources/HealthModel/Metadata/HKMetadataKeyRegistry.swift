/// What the predefined `HKMetadataKey…` keys expect, so the model can validate metadata
/// before it is saved. Keys are the raw strings that appear in metadata dictionaries (the
/// values of the `HKMetadataKey…` constants, e.g. "HKDeviceSerialNumber").
public enum HKMetadataKeyRegistry {
    /// The kind of value `key` expects; nil for keys HealthKit does not predefine (custom keys).
    public static func expectedKind(forKey key: String) -> HKMetadataValueKind? {
        expectedKinds[key]
    }

    /// For keys whose value is a HealthKit enum's raw value (weather condition, insulin
    /// delivery reason, …), the raw values that enum defines; nil for every other key.
    public static func allowedRawValues(forKey key: String) -> Set<Int>? {
        enumRawValues[key]
    }

    /// HealthKit reserves the "HK" prefix: a key that starts with it but is not predefined is
    /// rejected by HealthKit rather than stored as a custom key.
    public static func isReservedPrefix(_ key: String) -> Bool {
        key.hasPrefix("HK")
    }

    /// Every predefined key's raw string.
    public static var predefinedKeys: Set<String> { Set(expectedKinds.keys) }
}
