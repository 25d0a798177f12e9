/// Names a characteristic type, as HealthKit's `HKCharacteristicTypeIdentifier`. The raw value is
/// HealthKit's identifier string ("HKCharacteristicTypeIdentifier…"); the known identifiers are
/// static members (generated from the reference table). Any string can be wrapped, so an
/// identifier says nothing about whether the type exists: look it up with
/// `HKObjectType.characteristicType(forIdentifier:)`.
public struct HKCharacteristicTypeIdentifier: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}
