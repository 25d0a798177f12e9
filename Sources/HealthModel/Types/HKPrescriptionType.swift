public import Foundation

/// The vision prescription type, as HealthKit's `HKPrescriptionType`
/// (`HKObjectType.visionPrescriptionType()`, identifier `HKVisionPrescriptionTypeIdentifier`).
/// Apps may share it as usual; reading it is granted per object (`requiresPerObjectAuthorization()`),
/// never through `requestAuthorization(toShare:read:)` (`PerObjectAuthorization`).
public final class HKPrescriptionType: HKSampleType, @unchecked Sendable {
    init() {
        super.init(identifier: HKVisionPrescriptionTypeIdentifier)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}

/// The vision prescription type's identifier (string_constants.tsv; HealthKit's constant holds
/// its own name, as for the other type identifier constants).
public let HKVisionPrescriptionTypeIdentifier = "HKVisionPrescriptionTypeIdentifier"
