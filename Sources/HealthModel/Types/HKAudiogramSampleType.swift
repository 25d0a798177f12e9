public import Foundation

/// The audiogram sample type, as HealthKit's `HKAudiogramSampleType`
/// (`HKObjectType.audiogramSampleType()`, identifier `HKDataTypeIdentifierAudiogram`). Apps may
/// read and write it with the usual permissions; a sample's rules are `AudiogramRules`.
public final class HKAudiogramSampleType: HKSampleType, @unchecked Sendable {
    init() {
        super.init(identifier: HKDataTypeIdentifierAudiogram)
    }

    /// Decodes by identifier; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}
