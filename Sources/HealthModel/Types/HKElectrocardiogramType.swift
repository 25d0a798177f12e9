public import Foundation

/// The electrocardiogram sample type, as HealthKit's `HKElectrocardiogramType`
/// (`HKObjectType.electrocardiogramType()`). Apps may read it; only the ECG app records it, so
/// here it arrives by import (`AppWritability`).
public final class HKElectrocardiogramType: HKSampleType, @unchecked Sendable {
    init() {
        super.init(identifier: HKElectrocardiogramTypeIdentifier)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}
