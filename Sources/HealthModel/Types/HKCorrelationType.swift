public import Foundation

/// A correlation type (blood pressure, food), as HealthKit's `HKCorrelationType`: samples
/// that group other samples.
public final class HKCorrelationType: HKSampleType, @unchecked Sendable {
    init(identifier: HKCorrelationTypeIdentifier) {
        super.init(identifier: identifier.rawValue)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// HealthKit's `HKCorrelationType(.bloodPressure)`. Traps for an identifier HealthKit
    /// does not define, like HealthKit; use `HKObjectType.correlationType(forIdentifier:)`
    /// for identifiers from outside.
    public convenience init(_ identifier: HKCorrelationTypeIdentifier) {
        guard ObjectTypeRegistry.correlationTypes[identifier] != nil else {
            preconditionFailure("'\(identifier.rawValue)' is not a correlation type identifier; "
                                + "use HKObjectType.correlationType(forIdentifier:) for unchecked identifiers")
        }
        self.init(identifier: identifier)
    }
}
