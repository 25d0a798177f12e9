public import Foundation

/// A vision prescription, as HealthKit's `HKVisionPrescription` (iOS 16): on its own an
/// image-only record (the type, when it was issued and when it expires); its subclasses
/// `HKGlassesPrescription` and `HKContactsPrescription` add the lenses. A sample at one instant:
/// `startDate == endDate == dateIssued`.
///
/// Saving needs share permission for `HKObjectType.visionPrescriptionType()` as usual. Reading is
/// granted per prescription: `HKHealthStore.requestPerObjectReadAuthorization(for:predicate:)`
/// asks the user (in healthctl) which of the matching prescriptions the app may read; queries
/// return only those (and the app's own).
public class HKVisionPrescription: HKSample, @unchecked Sendable {
    public let prescriptionType: HKVisionPrescriptionType
    public var dateIssued: Date { startDate }
    public let expirationDate: Date?

    /// HealthKit's `prescriptionWithType:dateIssued:expirationDate:device:metadata:`.
    public convenience init(type: HKVisionPrescriptionType, dateIssued: Date, expirationDate: Date?, device: HKDevice?,
                            metadata: [String: Any]?) {
        self.init(value: VisionPrescriptionValue(kind: type.rawValue, hasLenses: false, expirationDate: expirationDate),
                  type: type, dateIssued: dateIssued, device: device, metadata: metadata)
    }

    init(value: VisionPrescriptionValue, type: HKVisionPrescriptionType, dateIssued: Date, device: HKDevice?, metadata: [String: Any]?) {
        prescriptionType = type
        expirationDate = value.expirationDate
        super.init(type: HKObjectType.visionPrescriptionType(), value: .visionPrescription(value), start: dateIssued, end: dateIssued,
                   device: device, metadata: metadata)
    }

    /// Reads an archive (`ArchivedSample`) of a prescription without lenses; the subclasses read
    /// those with lenses.
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKPrescriptionType,
              case let .visionPrescription(value) = archived.record.value, !value.hasLenses,
              let kind = HKVisionPrescriptionType(rawValue: value.kind) else { return nil }
        self.init(type: type, fetched: archived.record, value, kind: kind, parts: archived.parts)
    }

    init(type: HKPrescriptionType, fetched record: SampleRecord, _ value: VisionPrescriptionValue, kind: HKVisionPrescriptionType,
         parts: FetchedObjectParts) {
        prescriptionType = kind
        expirationDate = value.expirationDate
        super.init(type: type, fetched: record, parts: parts)
    }

    /// The prescription for a fetched record: the subclass its value says. A type or eye value
    /// this SDK does not know is a protocol mismatch, reported rather than guessed.
    static func fetched(type: HKPrescriptionType, record: SampleRecord, _ value: VisionPrescriptionValue,
                        parts: FetchedObjectParts) throws(HKError) -> HKVisionPrescription {
        guard let kind = HKVisionPrescriptionType(rawValue: value.kind) else {
            throw HKError(.unknownError, "healthd sent a vision prescription type this SDK does not know; "
                          + "the SDK and healthd versions may not match")
        }
        guard value.hasLenses else { return HKVisionPrescription(type: type, fetched: record, value, kind: kind, parts: parts) }
        switch kind {
        case .glasses: return try HKGlassesPrescription(type: type, fetched: record, value, parts: parts)
        case .contacts: return HKContactsPrescription(type: type, fetched: record, value, parts: parts)
        }
    }
}

extension HKSamplePredicate where Sample == HKVisionPrescription {
    /// HealthKit's `HKSamplePredicate.visionPrescription(_:)`.
    public static func visionPrescription(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKVisionPrescription> {
        HKSamplePredicate(sampleType: HKObjectType.visionPrescriptionType(), nsPredicate: predicate)
    }
}
