/// The audiogram sample type, as HealthKit's `HKAudiogramSampleType`
/// (`HKObjectType.audiogramSampleType()`, identifier `HKDataTypeIdentifierAudiogram`). Apps may
/// read and write it with the usual permissions; a sample's rules are `AudiogramRules`.
public final class HKAudiogramSampleType: HKSampleType, @unchecked Sendable {
    init() {
        super.init(identifier: HKDataTypeIdentifierAudiogram)
    }
}
