/// An operating system's version as HealthKit's `HKSourceRevision.operatingSystemVersion` holds
/// it (Foundation's `OperatingSystemVersion`, which is neither `Hashable` nor `Sendable` in
/// swift-corelibs-foundation). 0.0.0 means "not recorded": what Apple reports for samples whose
/// system it does not know, and what rows stored before v31 carry.
public struct SystemVersion: Hashable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public var patch: Int

    public init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    public static let unrecorded = SystemVersion(major: 0, minor: 0, patch: 0)

    /// Longest text `init?(parsing:)` reads: three 9-digit components and two dots. Anything
    /// longer is not a version, and a bound keeps the parse of foreign input (imports) cheap.
    public static let maximumTextLength = 29

    /// Reads "major", "major.minor" or "major.minor.patch" (missing parts are 0), the forms
    /// Apple writes ("16.0", "17.1.2") and `description` writes. Each part is 1–9 ASCII digits,
    /// so every component fits an `Int` on every platform. Anything else is nil: a caller
    /// records "not recorded" rather than a guess.
    public init?(parsing text: some StringProtocol) {
        guard !text.isEmpty, text.utf8.count <= Self.maximumTextLength else { return nil }
        var parts: [Int] = []
        for part in text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard (1...9).contains(part.count), part.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                return nil
            }
            parts.append(part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
        }
        guard parts.count <= 3 else { return nil }
        while parts.count < 3 { parts.append(0) }
        self.init(major: parts[0], minor: parts[1], patch: parts[2])
    }

    /// "major.minor.patch", the form the wire and the store carry.
    public var description: String { "\(major).\(minor).\(patch)" }
}
