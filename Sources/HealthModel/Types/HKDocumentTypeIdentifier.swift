/// Names a document type, as HealthKit's `HKDocumentTypeIdentifier` (iOS 10). The raw value is
/// HealthKit's string (spec/healthkit/string_constants.tsv). Like the other identifier structs,
/// any string can be wrapped; `HKObjectType.documentType(forIdentifier:)` says whether the type exists.
public struct HKDocumentTypeIdentifier: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A Clinical Document Architecture (HL7 CDA) document (`HKDocumentTypeIdentifierCDA`).
    public static let CDA = HKDocumentTypeIdentifier("HKDocumentTypeIdentifierCDA")

    /// The identifiers HealthKit defines, in a stable order.
    public static let registered: [HKDocumentTypeIdentifier] = [.CDA]
}
