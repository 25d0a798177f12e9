public import Foundation

/// A category type, as HealthKit's `HKCategoryType`: samples carry one of a fixed set of
/// integer values (the raw values of the type's `HKCategoryValue…` enum).
public final class HKCategoryType: HKSampleType, @unchecked Sendable {
    /// The raw values a sample of this type may carry.
    public let allowedValues: Set<Int>

    init(identifier: HKCategoryTypeIdentifier, allowedValues: Set<Int>) {
        self.allowedValues = allowedValues
        super.init(identifier: identifier.rawValue)
    }

    /// Takes the registered type's allowed values, never the archive's; see
    /// `HKObjectType.init?(coder:)`.
    public required convenience init?(coder: NSCoder) {
        guard let registered = Self.registered(decodedFrom: coder, as: HKCategoryType.self) as? HKCategoryType else {
            return nil
        }
        self.init(identifier: HKCategoryTypeIdentifier(rawValue: registered.identifier),
                  allowedValues: registered.allowedValues)
    }

    /// HealthKit's `HKCategoryType(.sleepAnalysis)`. Traps for an identifier HealthKit does
    /// not define, like HealthKit; use `HKObjectType.categoryType(forIdentifier:)` for
    /// identifiers from outside.
    public convenience init(_ identifier: HKCategoryTypeIdentifier) {
        guard let registered = ObjectTypeRegistry.categoryTypes[identifier] else {
            preconditionFailure("'\(identifier.rawValue)' is not a category type identifier; "
                                + "use HKObjectType.categoryType(forIdentifier:) for unchecked identifiers")
        }
        self.init(identifier: identifier, allowedValues: registered.allowedValues)
    }
}
