public import Foundation

/// A contact lens prescription, as HealthKit's `HKContactsPrescription` (iOS 16).
public final class HKContactsPrescription: HKVisionPrescription, @unchecked Sendable {
    public let rightEye: HKContactsLensSpecification?
    public let leftEye: HKContactsLensSpecification?
    /// The lens brand (at most 256 characters; a longer one makes `save` fail).
    public let brand: String

    /// HealthKit's `prescriptionWithRightEyeSpecification:leftEyeSpecification:brand:dateIssued:expirationDate:device:metadata:`.
    public init(rightEyeSpecification: HKContactsLensSpecification?, leftEyeSpecification: HKContactsLensSpecification?,
                brand: String, dateIssued: Date, expirationDate: Date?, device: HKDevice?, metadata: [String: Any]?) {
        rightEye = rightEyeSpecification
        leftEye = leftEyeSpecification
        self.brand = brand
        super.init(value: VisionPrescriptionValue(kind: HKVisionPrescriptionType.contacts.rawValue, hasLenses: true,
                                                  expirationDate: expirationDate, rightEye: rightEyeSpecification?.value,
                                                  leftEye: leftEyeSpecification?.value, brand: brand),
                   type: .contacts, dateIssued: dateIssued, device: device, metadata: metadata)
    }

    /// Reads an archive (`ArchivedSample`) of a contacts prescription.
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKPrescriptionType,
              case let .visionPrescription(value) = archived.record.value, value.hasLenses,
              value.kind == HKVisionPrescriptionType.contacts.rawValue else { return nil }
        self.init(type: type, fetched: archived.record, value, parts: archived.parts)
    }

    init(type: HKPrescriptionType, fetched record: SampleRecord, _ value: VisionPrescriptionValue, parts: FetchedObjectParts) {
        rightEye = value.rightEye.map(HKContactsLensSpecification.init(fetched:))
        leftEye = value.leftEye.map(HKContactsLensSpecification.init(fetched:))
        brand = value.brand ?? ""
        super.init(type: type, fetched: record, value, kind: .contacts, parts: parts)
    }
}
