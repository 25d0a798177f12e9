public import Foundation

/// A glasses prescription, as HealthKit's `HKGlassesPrescription` (iOS 16).
public final class HKGlassesPrescription: HKVisionPrescription, @unchecked Sendable {
    public let rightEye: HKGlassesLensSpecification?
    public let leftEye: HKGlassesLensSpecification?

    /// HealthKit's `prescriptionWithRightEyeSpecification:leftEyeSpecification:dateIssued:expirationDate:device:metadata:`.
    public init(rightEyeSpecification: HKGlassesLensSpecification?, leftEyeSpecification: HKGlassesLensSpecification?,
                dateIssued: Date, expirationDate: Date?, device: HKDevice?, metadata: [String: Any]?) {
        rightEye = rightEyeSpecification
        leftEye = leftEyeSpecification
        super.init(value: VisionPrescriptionValue(kind: HKVisionPrescriptionType.glasses.rawValue, hasLenses: true,
                                                  expirationDate: expirationDate, rightEye: rightEyeSpecification?.value,
                                                  leftEye: leftEyeSpecification?.value),
                   type: .glasses, dateIssued: dateIssued, device: device, metadata: metadata)
    }

    /// Reads an archive (`ArchivedSample`) of a glasses prescription.
    public required init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKPrescriptionType,
              case let .visionPrescription(value) = archived.record.value, value.hasLenses,
              value.kind == HKVisionPrescriptionType.glasses.rawValue,
              let right = try? value.rightEye.map({ (lens) throws(HKError) in try HKGlassesLensSpecification(fetched: lens) }),
              let left = try? value.leftEye.map({ (lens) throws(HKError) in try HKGlassesLensSpecification(fetched: lens) })
        else { return nil }
        rightEye = right
        leftEye = left
        super.init(type: type, fetched: archived.record, value, kind: .glasses, parts: archived.parts)
    }

    init(type: HKPrescriptionType, fetched record: SampleRecord, _ value: VisionPrescriptionValue, parts: FetchedObjectParts) throws(HKError) {
        rightEye = try value.rightEye.map { (lens) throws(HKError) in try HKGlassesLensSpecification(fetched: lens) }
        leftEye = try value.leftEye.map { (lens) throws(HKError) in try HKGlassesLensSpecification(fetched: lens) }
        super.init(type: type, fetched: record, value, kind: .glasses, parts: parts)
    }
}
