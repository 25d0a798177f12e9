import HealthModel

/// Turns what a user types for a health type into its HealthKit identifier. Accepted: the full
/// identifier (HKQuantityTypeIdentifierHeartRate) or the short name in any case and with any
/// separators (HeartRate, heartRate, heart-rate, "heart rate"). Unknown names fail with the
/// closest known names, so a typo is fixed without reading the type catalogue.
public struct TypeNameResolver: Sendable {
    /// Every type of the HealthModel registry.
    public static let registry = TypeNameResolver(identifiers: HKObjectType.allTypes.map(\.identifier))

    /// Normalised spelling (see `key(_:)`) → identifiers. More than one identifier is an ambiguity.
    private let byKey: [String: [String]]
    private let identifiers: [String]

    public init(identifiers: [String]) {
        self.identifiers = identifiers
        var byKey: [String: [String]] = [:]
        for identifier in identifiers {
            byKey[Self.key(identifier), default: []].append(identifier)
            let short = Self.key(TypeDisplayName.shortName(of: identifier))
            if short != Self.key(identifier) { byKey[short, default: []].append(identifier) }
        }
        self.byKey = byKey
    }

    /// The identifier `name` stands for.
    public func resolve(_ name: String) throws(TypeNameError) -> String {
        let matches = byKey[Self.key(name)] ?? []
        switch matches.count {
        case 1: return matches[0]
        case 0: throw TypeNameError(name: name, reason: .unknown(suggestions: suggestions(for: name)))
        default: throw TypeNameError(name: name, reason: .ambiguous(candidates: matches))
        }
    }

    /// Short names for shell completion, in registry order.
    public var completionNames: [String] { identifiers.map { Self.commandLineName(of: $0) } }

    /// Up to `limit` known names closest to `name`, best first: names containing it, names
    /// within a few edits of it, then names with a word within one edit of it ("steps" finds
    /// stepCount).
    public func suggestions(for name: String, limit: Int = 5) -> [String] {
        let wanted = Self.key(name)
        guard !wanted.isEmpty else { return [] }
        let allowedEdits = max(2, wanted.count / 3)
        let scored: [(identifier: String, score: Int)] = identifiers.compactMap { identifier in
            let candidate = Self.key(TypeDisplayName.shortName(of: identifier))
            if wanted.count >= 3, candidate.contains(wanted) || wanted.contains(candidate) {
                return (identifier, candidate == wanted ? 0 : 1)
            }
            let edits = Self.editDistance(wanted, candidate, bound: allowedEdits)
            if edits <= allowedEdits { return (identifier, edits + 1) }
            let words = TypeDisplayName.words(of: identifier).split(separator: " ").map { Self.key(String($0)) }
            if wanted.count >= 4, words.contains(where: { $0.count >= 4 && Self.editDistance(wanted, $0, bound: 1) <= 1 }) {
                return (identifier, allowedEdits + 2)
            }
            return nil
        }
        return scored
            .sorted { ($0.score, $0.identifier.count, $0.identifier) < ($1.score, $1.identifier.count, $1.identifier) }
            .prefix(limit)
            .map { Self.commandLineName(of: $0.identifier) }
    }

    /// The name suggestions and completions show: the short name in lower camel case, unless
    /// it starts with an acronym ("heartRate", "VO2Max").
    static func commandLineName(of identifier: String) -> String {
        let short = TypeDisplayName.shortName(of: identifier)
        guard let first = short.first, short.dropFirst().first?.isUppercase != true else { return short }
        return first.lowercased() + short.dropFirst()
    }

    /// Lowercased letters and digits only: "Heart-Rate", "heart_rate" and "heartRate" agree.
    static func key(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// Levenshtein distance, giving up (returning `bound + 1`) once it must exceed `bound`.
    static func editDistance(_ a: String, _ b: String, bound: Int) -> Int {
        let a = Array(a), b = Array(b)
        if abs(a.count - b.count) > bound { return bound + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            if let smallest = current.min(), smallest > bound { return bound + 1 }
            previous = current
        }
        return previous[b.count]
    }
}

/// A type name that names no type, or more than one.
public struct TypeNameError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        case unknown(suggestions: [String])
        case ambiguous(candidates: [String])
    }

    public let name: String
    public let reason: Reason

    public init(name: String, reason: Reason) {
        self.name = name
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case let .unknown(suggestions) where suggestions.isEmpty:
            "unknown health type '\(name)'; use a HealthKit identifier such as HKQuantityTypeIdentifierHeartRate or a short name such as heartRate"
        case let .unknown(suggestions):
            "unknown health type '\(name)'; did you mean \(suggestions.joined(separator: ", "))?"
        case let .ambiguous(candidates):
            "'\(name)' could mean \(candidates.joined(separator: " or ")); give the full identifier"
        }
    }
}
