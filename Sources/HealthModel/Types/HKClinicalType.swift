public import Foundation

/// A clinical record type, as HealthKit's `HKClinicalType` (`HKObjectType.clinicalType(forIdentifier:)`).
///
/// Read-only for apps, as in HealthKit: a share request naming one is refused and no app may
/// save one (`AppWritability`); reading also needs the health-records entitlement
/// (`AppManifest.allowsHealthRecords`). Records arrive by `healthctl import` of an Apple Health export.
public final class HKClinicalType: HKSampleType, @unchecked Sendable {
    init(identifier: HKClinicalTypeIdentifier) {
        super.init(identifier: identifier.rawValue)
    }

    /// HealthKit's `HKClinicalType(.labResultRecord)` (iOS 15), equal to
    /// `HKObjectType.clinicalType(forIdentifier:)`'s type. Traps for an identifier HealthKit does
    /// not define, like HealthKit and the other type initializers here; use
    /// `HKObjectType.clinicalType(forIdentifier:)` for identifiers from outside.
    public convenience init(_ identifier: HKClinicalTypeIdentifier) {
        guard ObjectTypeRegistry.clinicalTypes[identifier] != nil else {
            preconditionFailure("'\(identifier.rawValue)' is not a clinical type identifier; "
                                + "use HKObjectType.clinicalType(forIdentifier:) for unchecked identifiers")
        }
        self.init(identifier: identifier)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}
