public import Foundation

/// A FHIR version, as HealthKit's `HKFHIRVersion` (iOS 14). Parsing and the release rule are
/// `FHIRVersionNumber`'s, the one healthd validates stored records with.
///
/// `NSSecureCoding`, as Apple's: the archive holds the version's text ("4.0.1"), read back with
/// the same parser as `init(fhirVersionString:)`; text that is not a version decodes as nil.
public final class HKFHIRVersion: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    let number: FHIRVersionNumber

    public var majorVersion: Int { number.major }
    public var minorVersion: Int { number.minor }
    public var patchVersion: Int { number.patch }
    /// DSTU2 for 1.0.x, R4 for 4.0.x, unknown otherwise.
    public var fhirRelease: HKFHIRRelease { HKFHIRRelease(number.release) }
    /// "4.0.1".
    public var stringRepresentation: String { number.stringRepresentation }

    init(_ number: FHIRVersionNumber) {
        self.number = number
    }

    /// HealthKit's `init(fhirVersionString:)`: throws for a string that is not major.minor.patch
    /// (HealthKit's error is errorInvalidArgument as well).
    public convenience init(fhirVersionString versionString: String) throws {
        guard let number = FHIRVersionNumber(versionString) else {
            throw HKError(.errorInvalidArgument, "\(versionString.prefix(40)) is not a FHIR version (major.minor.patch, e.g. 4.0.1)")
        }
        self.init(number)
    }

    /// 1.0.2, the DSTU2 version HealthKit's records use.
    public static func primaryDSTU2() -> HKFHIRVersion { HKFHIRVersion(.primaryDSTU2) }
    /// 4.0.1, the R4 version HealthKit's records use.
    public static func primaryR4() -> HKFHIRVersion { HKFHIRVersion(.primaryR4) }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKFHIRVersion)?.number == number
    }

    public override var hash: Int { number.hashValue }

    public override var description: String { stringRepresentation }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let versionKey = "fhirVersion"

    public func encode(with coder: NSCoder) {
        coder.encode(NSString(string: stringRepresentation), forKey: Self.versionKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard let number = coder.decodeRequiredString(forKey: Self.versionKey).flatMap(FHIRVersionNumber.init) else { return nil }
        self.init(number)
    }
}
