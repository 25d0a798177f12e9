/// Names a quantity type, as HealthKit's `HKQuantityTypeIdentifier`. The raw value is
/// HealthKit's identifier string ("HKQuantityTypeIdentifier…"); the known identifiers are
/// static members (generated from the reference table). Any string can be wrapped, so an
/// identifier says nothing about whether the type exists: look it up with
/// `HKObjectType.quantityType(forIdentifier:)`.
public struct HKQuantityTypeIdentifier: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}
