/// One characteristic as the user set it (`value` nil: not set). Apps only ever read these;
/// the user sets them in the manager.
public struct CharacteristicRecord: Hashable, Sendable {
    public enum Value: Hashable, Sendable {
        /// Date of birth.
        case day(CalendarDay)
        /// The raw value of the characteristic's enum (`HKBiologicalSex`, `HKBloodType`, …).
        case enumeration(Int)
    }

    /// An `HKCharacteristicTypeIdentifier…` string.
    public var typeIdentifier: String
    public var value: Value?

    public init(typeIdentifier: String, value: Value?) {
        self.typeIdentifier = typeIdentifier
        self.value = value
    }
}
