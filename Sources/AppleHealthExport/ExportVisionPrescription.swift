public import Foundation

/// A `VisionPrescription` element (HealthKit Export Version 14, iOS 16+): the prescription's
/// kind (`type`), `dateIssued`, `expirationDate` and a contact lens `brand`, then `RightEye` and
/// `LeftEye` lens elements, `Attachment`s (the prescription's images, not in the export) and
/// `MetadataEntry`s. Apple's element names no source; files this project writes add the
/// source's attributes (`ExportDTD`), read back into `header.source`.
public struct ExportVisionPrescription: Sendable, Equatable {
    /// Type `HKVisionPrescriptionTypeIdentifier`; start and end are the date issued.
    public var header: ExportSampleHeader
    /// The `type` attribute as written (`HKVisionPrescriptionTypeGlasses`, `…Contacts`).
    public var kind: String
    public var expirationDate: Date?
    public var brand: String?
    public var rightEye: ExportLens?
    public var leftEye: ExportLens?
    /// `Attachment` children seen (their images are not part of the export).
    public var attachments: Int
}

/// A `RightEye` or `LeftEye` element: each field a value and its unit (`sphere`/`sphereUnit`,
/// …, `diameter`/`diameterUnit`), as written.
public struct ExportLens: Sendable, Equatable {
    /// The DTD's field names, in its order; `fields` is keyed by them.
    public static let fieldNames = ["sphere", "cylinder", "axis", "add", "vertex", "prismAmount", "prismAngle", "farPD",
                                    "nearPD", "baseCurve", "diameter"]
    public var fields: [String: ExportMeasure]

    public init(fields: [String: ExportMeasure]) {
        self.fields = fields
    }
}
