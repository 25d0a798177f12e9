public import Foundation

/// A clinical record's FHIR resource, as HealthKit's `HKFHIRResource` (iOS 12): the JSON as the
/// institution sent it, with the fields HealthKit reads out of it. Only healthd makes these
/// (from stored records); apps cannot create them, as in HealthKit.
///
/// `NSSecureCoding`, as Apple's: the archive holds the resource type, identifier, JSON bytes,
/// source URL and version text as flat fields, and decoding applies the rules healthd stores
/// records under (`FHIRResourceRules`: known resource type, bounded fields, JSON whose
/// `resourceType` and `id` match, a parseable version), so an archive decodes only into a
/// resource a fetch could have returned; anything else decodes as nil.
public final class HKFHIRResource: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    public let resourceType: HKFHIRResourceType
    /// The resource's `id`.
    public let identifier: String
    /// The resource's JSON, byte for byte as imported.
    public let data: Data
    public let sourceURL: URL?
    public let fhirVersion: HKFHIRVersion

    init(_ value: ClinicalRecordValue) {
        resourceType = HKFHIRResourceType(value.resourceType)
        identifier = value.identifier
        data = value.data
        sourceURL = value.sourceURL.flatMap(URL.init(string:))
        // healthd stored only parseable versions; an unparseable one (a newer peer) reads as 0.0.0.
        fhirVersion = HKFHIRVersion(FHIRVersionNumber(value.fhirVersion) ?? FHIRVersionNumber(major: 0, minor: 0, patch: 0))
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let typeKey = "resourceType"
    private static let identifierKey = "identifier"
    private static let dataKey = "data"
    private static let sourceURLKey = "sourceURL"
    private static let versionKey = "fhirVersion"
    /// The rules need a display name, which belongs to the record, not the resource.
    private static let displayNameForRules = "archived FHIR resource"

    public func encode(with coder: NSCoder) {
        coder.encode(NSString(string: resourceType.rawValue), forKey: Self.typeKey)
        coder.encode(NSString(string: identifier), forKey: Self.identifierKey)
        coder.encode(data as NSData, forKey: Self.dataKey)
        if let sourceURL { coder.encode(NSString(string: sourceURL.absoluteString), forKey: Self.sourceURLKey) }
        coder.encode(NSString(string: fhirVersion.stringRepresentation), forKey: Self.versionKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard let type = coder.decodeRequiredString(forKey: Self.typeKey),
              let identifier = coder.decodeRequiredString(forKey: Self.identifierKey),
              let data = coder.decodeRequiredData(forKey: Self.dataKey),
              let sourceURL = coder.decodeOptionalString(forKey: Self.sourceURLKey),
              let version = coder.decodeRequiredString(forKey: Self.versionKey) else { return nil }
        let value = ClinicalRecordValue(displayName: Self.displayNameForRules, resourceType: type, identifier: identifier,
                                        data: data, sourceURL: sourceURL, fhirVersion: version)
        // The size bound on the JSON is checked before parsing it (FHIRResourceJSON's own bound).
        guard (try? FHIRResourceRules.check(value)) != nil else { return nil }
        self.init(value)
    }
}
