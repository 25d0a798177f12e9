import Foundation

/// An installed app's manifest: who it is, which executable it is, why it wants health data.
///
/// healthctl reads it from a JSON file (see README "App manifests"); the usage-description keys
/// are HealthKit's Info.plist keys so a ported app keeps its texts.
public struct AppManifest: Codable, Hashable, Sendable {
    public var id: String
    public var displayName: String
    /// Absolute path; a direct connection to the app socket is identified by matching it.
    public var executable: String
    public var version: String
    /// NSHealthShareUsageDescription: why the app reads health data. Required to request read access.
    public var readUsageDescription: String?
    /// NSHealthUpdateUsageDescription: why the app writes health data. Required to request share access.
    public var shareUsageDescription: String?
    public var entitlements: [String]
    /// `"network": true`: the app asks for network access. It gets it only if the user also
    /// allows it (`healthctl apps allow-network`); otherwise its network namespace is empty.
    public var network: Bool

    public init(id: String, displayName: String, executable: String, version: String,
                readUsageDescription: String? = nil, shareUsageDescription: String? = nil, entitlements: [String] = [],
                network: Bool = false) {
        self.id = id
        self.displayName = displayName
        self.executable = executable
        self.version = version
        self.readUsageDescription = readUsageDescription
        self.shareUsageDescription = shareUsageDescription
        self.entitlements = entitlements
        self.network = network
    }

    public static let readUsageKey = "NSHealthShareUsageDescription"
    public static let shareUsageKey = "NSHealthUpdateUsageDescription"
    /// Entitlements the broker knows; anything else is refused at install.
    public static let knownEntitlements: Set<String> = ["background-delivery", backgroundDeliveryEntitlement, healthRecordsEntitlement]
    /// HealthKit's entitlement for `enableBackgroundDelivery`. The short "background-delivery"
    /// (the name manifests used first) grants the same.
    public static let backgroundDeliveryEntitlement = "com.apple.developer.healthkit.background-delivery"

    /// Apple's capabilities entitlement (`com.apple.developer.healthkit.access`), an array of the
    /// sensitive data kinds an app may ask for; a manifest spells it as in an entitlements file,
    /// `"com.apple.developer.healthkit.access": ["health-records"]`.
    public static let healthKitAccessKey = "com.apple.developer.healthkit.access"
    /// The one `healthKitAccessKey` value known: clinical records.
    public static let healthRecordsAccess = "health-records"
    /// How `health-records` is kept among `entitlements` (stored and sent with the others, so the
    /// app table and the wire need nothing new).
    public static let healthRecordsEntitlement = healthKitAccessKey + "=" + healthRecordsAccess

    /// Whether the app may ask to read clinical records and see them. Without it healthd refuses
    /// a read request naming a clinical type as HealthKit does, and clinical records look absent
    /// to the app whatever its grants (`AuthorizationEngine.readScope`).
    public var allowsHealthRecords: Bool { entitlements.contains(Self.healthRecordsEntitlement) }

    /// Whether the manifest allows `enableBackgroundDelivery` (and launches for it).
    public var allowsBackgroundDelivery: Bool {
        entitlements.contains(Self.backgroundDeliveryEntitlement) || entitlements.contains("background-delivery")
    }

    enum CodingKeys: String, CodingKey {
        case id, displayName, executable, version, entitlements, network
        case healthKitAccess = "com.apple.developer.healthkit.access"
        case readUsageDescription = "NSHealthShareUsageDescription"
        case shareUsageDescription = "NSHealthUpdateUsageDescription"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        displayName = try container.decode(String.self, forKey: .displayName)
        executable = try container.decode(String.self, forKey: .executable)
        version = try container.decode(String.self, forKey: .version)
        readUsageDescription = try container.decodeIfPresent(String.self, forKey: .readUsageDescription)
        shareUsageDescription = try container.decodeIfPresent(String.self, forKey: .shareUsageDescription)
        entitlements = try container.decodeIfPresent([String].self, forKey: .entitlements) ?? []
        // Each value becomes "key=value" among the entitlements; an unknown one is then
        // reported by `problems` like any unknown entitlement.
        for access in try container.decodeIfPresent([String].self, forKey: .healthKitAccess) ?? [] {
            let entitlement = Self.healthKitAccessKey + "=" + access
            if !entitlements.contains(entitlement) { entitlements.append(entitlement) }
        }
        // A JSON boolean or nothing; anything else fails decoding, naming the key.
        network = try container.decodeIfPresent(Bool.self, forKey: .network) ?? false
    }

    /// Written back as read, except that `health-records` stays among `entitlements` (which
    /// `init(from:)` accepts too).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(displayName, forKey: .displayName)
        try container.encode(executable, forKey: .executable)
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(readUsageDescription, forKey: .readUsageDescription)
        try container.encodeIfPresent(shareUsageDescription, forKey: .shareUsageDescription)
        try container.encode(entitlements, forKey: .entitlements)
        try container.encode(network, forKey: .network)
    }

    /// Everything wrong with the manifest, each problem a sentence naming the field; empty if valid.
    public var problems: [String] {
        var problems: [String] = []
        // ASCII by scalar: an id that only looks like another installed app's is refused (`AppIDRule`).
        if !AppIDRule.isValid(id) { problems.append(AppIDRule.message + " (it is '\(AppIDRule.spelled(id))')") }
        // `TextBound`: characters and bytes, so no "short" text of megabytes of combining marks.
        if displayName.trimmingCharacters(in: .whitespaces).isEmpty || !TextBound.fits(displayName, characters: 128) {
            problems.append("displayName must be 1-128 characters (at most 512 UTF-8 bytes)")
        }
        // Not the user's own source name (`DisplayNameRule`); another app's is refused by the install itself.
        if let problem = DisplayNameRule.userNameProblem(displayName) { problems.append(problem) }
        if !executable.hasPrefix("/") { problems.append("executable must be an absolute path") }
        if version.isEmpty || !TextBound.fits(version, characters: 64) {
            problems.append("version must be 1-64 characters (at most 256 UTF-8 bytes)")
        }
        for (key, text) in [(Self.readUsageKey, readUsageDescription), (Self.shareUsageKey, shareUsageDescription)] {
            if let text, text.trimmingCharacters(in: .whitespaces).isEmpty || !TextBound.fits(text, characters: 1000) {
                problems.append("\(key) must be 1-1000 characters (at most 4000 UTF-8 bytes) when present")
            }
        }
        // Shown in consent prompts ("Allow NAME to READ …? [y/N]") and app lists: text, never a
        // terminal sequence that could hide or rewrite the question the user answers.
        let shown = [("displayName", displayName), ("version", version), ("executable", executable),
                     (Self.readUsageKey, readUsageDescription ?? ""), (Self.shareUsageKey, shareUsageDescription ?? "")]
        for (key, text) in shown {
            guard let (scalar, position) = TerminalControlCharacters.first(in: text) else { continue }
            let code = String(scalar.value, radix: 16, uppercase: true)
            problems.append("\(key) must not hold control or bidirectional formatting characters (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code) "
                            + "at character \(position)): healthctl shows it in consent prompts, where such a character could hide or rewrite the question")
        }
        for entitlement in entitlements where !Self.knownEntitlements.contains(entitlement) {
            problems.append("unknown entitlement \(entitlement.prefix(64)) (known: \(Self.knownEntitlements.sorted().joined(separator: ", ")))")
        }
        return problems
    }
}
