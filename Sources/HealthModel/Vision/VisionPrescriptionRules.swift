/// The checks a vision prescription passes before healthd stores it: HealthKit's documented
/// rules and bounds of our own that no real prescription comes near, so a value that passes is
/// one an optician could have written. Messages name the eye and the field and the allowed
/// range, never the value given (it is the app's own data, but this keeps messages safe to
/// surface anywhere).
///
/// HealthKit's (developer.apple.com/documentation/healthkit): a prescription has one date, the
/// date issued (`HKVisionPrescription.dateIssued`; start = end); its type is
/// `HKVisionPrescriptionType` glasses (1) or contacts (2); a glasses prescription holds
/// `HKGlassesLensSpecification`s, a contacts one `HKContactsLensSpecification`s and a brand;
/// sphere, cylinder and add power are in `HKUnit.diopter()`, axis and prism angle in
/// `degreeAngle()`, the prism amount in `prismDiopter()`; `HKVisionEye` is left (1) or right (2).
/// Ours: every number finite and inside `Bound`s below; the expiration not before the date issued
/// and inside the window of sample dates (`SampleLimits`); a brand of at most 256 characters and
/// 1,024 UTF-8 bytes.
public enum VisionPrescriptionRules {
    /// An allowed range and the unit it is in, for the message.
    public struct Bound: Sendable {
        public let range: ClosedRange<Double>
        public let unit: String
    }

    // Clinical ranges with room to spare: the strongest spectacle or contact lenses made are
    // about ±30 D, cylinders about ±10 D, adds up to +4 D.
    public static let sphere = Bound(range: -40...40, unit: "D")
    public static let cylinder = Bound(range: -20...20, unit: "D")
    public static let axis = Bound(range: 0...180, unit: "deg")
    public static let addPower = Bound(range: 0...10, unit: "D")
    public static let vertexDistance = Bound(range: 0...50, unit: "mm")
    public static let prismAmount = Bound(range: 0...50, unit: "pD")
    public static let prismAngle = Bound(range: 0...360, unit: "deg")
    public static let pupillaryDistance = Bound(range: 0...100, unit: "mm")
    public static let baseCurve = Bound(range: 0...20, unit: "mm")
    public static let diameter = Bound(range: 0...30, unit: "mm")
    public static let maxBrandLength = 256
    /// The brand's bound in UTF-8 bytes (`TextBound`: four per character).
    public static let maxBrandBytes = maxBrandLength * 4
    /// `HKVisionEye` raw values.
    public static let eyes: ClosedRange<Int> = 1...2

    public static func check(_ value: VisionPrescriptionValue, of record: SampleRecord) throws(HKError) {
        let type = record.typeIdentifier
        guard record.startDate == record.endDate else {
            throw HKError(.errorInvalidArgument, "\(type): a prescription has one date, the date issued; its start and end must be equal")
        }
        guard value.kind == VisionPrescriptionValue.glasses || value.kind == VisionPrescriptionValue.contacts else {
            throw HKError(.errorInvalidArgument, "\(type): prescription type must be glasses (1) or contacts (2)")
        }
        if let expiration = value.expirationDate {
            // The window every sample date lies in: a date the wire can carry (any Int64 of
            // microseconds, 292,000 years either way) is not a date an optician wrote.
            guard (SampleLimits.earliestPermittedSampleDate...SampleLimits.latestPermittedSampleDate).contains(expiration) else {
                throw HKError(.errorInvalidArgument, "\(type): expirationDate must lie between 1900-01-01 and 2200-01-01 (UTC)")
            }
            guard expiration >= record.startDate else {
                throw HKError(.errorInvalidArgument, "\(type): expirationDate is before dateIssued")
            }
        }
        let contacts = value.kind == VisionPrescriptionValue.contacts
        guard value.hasLenses || (value.rightEye == nil && value.leftEye == nil && value.brand == nil) else {
            throw HKError(.errorInvalidArgument, "\(type): a prescription without lens specifications carries no lenses or brand")
        }
        if value.hasLenses, contacts {
            guard let brand = value.brand else {
                throw HKError(.errorInvalidArgument, "\(type): a contacts prescription needs a brand (HKContactsPrescription.brand)")
            }
            guard TextBound.fits(brand, characters: maxBrandLength) else {
                throw HKError(.errorInvalidArgument,
                              "\(type): brand is longer than \(maxBrandLength) characters or \(maxBrandBytes) bytes (UTF-8)")
            }
        } else if value.brand != nil {
            throw HKError(.errorInvalidArgument, "\(type): only a contacts prescription has a brand")
        }
        for (eye, lens) in [("right eye", value.rightEye), ("left eye", value.leftEye)] {
            guard let lens else { continue }
            try check(lens, contacts: contacts, where: "\(type) \(eye)")
        }
    }

    private static func check(_ lens: LensSpecificationValue, contacts: Bool, where place: String) throws(HKError) {
        try require(lens.sphere, sphere, "sphere", place)
        try require(lens.cylinder, cylinder, "cylinder", place)
        try require(lens.axis, axis, "axis", place)
        try require(lens.addPower, addPower, "addPower", place)
        let glassesOnly: [(String, Bool)] = [
            ("vertexDistance", lens.vertexDistance != nil), ("prism", lens.prism != nil),
            ("farPupillaryDistance", lens.farPupillaryDistance != nil), ("nearPupillaryDistance", lens.nearPupillaryDistance != nil),
        ]
        let contactsOnly: [(String, Bool)] = [("baseCurve", lens.baseCurve != nil), ("diameter", lens.diameter != nil)]
        for (field, present) in contacts ? glassesOnly : contactsOnly where present {
            throw HKError(.errorInvalidArgument, "\(place): \(field) belongs to \(contacts ? "glasses" : "contact") lenses, not to this \(contacts ? "contacts" : "glasses") prescription")
        }
        try require(lens.vertexDistance, vertexDistance, "vertexDistance", place)
        try require(lens.farPupillaryDistance, pupillaryDistance, "farPupillaryDistance", place)
        try require(lens.nearPupillaryDistance, pupillaryDistance, "nearPupillaryDistance", place)
        try require(lens.baseCurve, baseCurve, "baseCurve", place)
        try require(lens.diameter, diameter, "diameter", place)
        if let prism = lens.prism {
            try require(prism.amount, prismAmount, "prism amount", place)
            try require(prism.angle, prismAngle, "prism angle", place)
            guard eyes.contains(prism.eye) else {
                throw HKError(.errorInvalidArgument, "\(place): prism eye must be left (1) or right (2)")
            }
        }
    }

    /// `contains` is false for NaN, so NaN (what the SDK sends for a quantity in a unit of the
    /// wrong kind) is refused with the out-of-range values.
    private static func require(_ value: Double?, _ bound: Bound, _ field: String, _ place: String) throws(HKError) {
        guard let value else { return }
        guard bound.range.contains(value) else {
            throw HKError(.errorInvalidArgument,
                          "\(place): \(field) must be a finite number of \(bound.unit) from \(bound.range.lowerBound) to \(bound.range.upperBound)")
        }
    }
}
