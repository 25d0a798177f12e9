public import Foundation

/// A characteristic type (biological sex, date of birth, …), as HealthKit's
/// `HKCharacteristicType`. Characteristics are single values, not samples.
public final class HKCharacteristicType: HKObjectType, @unchecked Sendable {
    init(identifier: HKCharacteristicTypeIdentifier) {
        super.init(identifier: identifier.rawValue)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// HealthKit's `HKCharacteristicType(.bloodType)`. Traps for an identifier HealthKit does
    /// not define, like HealthKit; use `HKObjectType.characteristicType(forIdentifier:)` for
    /// identifiers from outside.
    public convenience init(_ identifier: HKCharacteristicTypeIdentifier) {
        guard ObjectTypeRegistry.characteristicTypes[identifier] != nil else {
            preconditionFailure("'\(identifier.rawValue)' is not a characteristic type identifier; "
                                + "use HKObjectType.characteristicType(forIdentifier:) for unchecked identifiers")
        }
        self.init(identifier: identifier)
    }
}
