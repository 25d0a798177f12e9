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

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}
