/// A FHIR version string ("4.0.1") as numbers, and the release HealthKit names it by
/// (`HKFHIRVersion`, `HKFHIRRelease`). Parsing is bounded by `FHIRResourceRules.maxFHIRVersionBytes`.
public struct FHIRVersionNumber: Hashable, Sendable {
    public let major: Int
    public let minor: Int
    public let patch: Int

    /// nil unless `text` is three dot-separated decimal numbers.
    public init?(_ text: String) {
        guard text.utf8.count <= FHIRResourceRules.maxFHIRVersionBytes else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let major = Int(parts[0]), let minor = Int(parts[1]), let patch = Int(parts[2]) else { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    public init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    public var stringRepresentation: String { "\(major).\(minor).\(patch)" }

    /// `HKFHIRRelease` raw value: "DSTU2" for 1.0.x, "R4" for 4.0.x, "Unknown" otherwise (Apple's
    /// `fhirRelease` documents exactly these three).
    public var release: String {
        switch (major, minor) {
        case (1, 0): "DSTU2"
        case (4, 0): "R4"
        default: "Unknown"
        }
    }

    public static let primaryDSTU2 = FHIRVersionNumber(major: 1, minor: 0, patch: 2)
    public static let primaryR4 = FHIRVersionNumber(major: 4, minor: 0, patch: 1)
}
