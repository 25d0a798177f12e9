/// The bounds of what healthd reads from a card file, apart from the parsing itself, so they are
/// one policy: every size is checked before the bytes it bounds are decoded or inflated.
public struct SmartHealthCardLimits: Sendable {
    /// The import file (a .smart-health-card file of several cards, or one card).
    public var maxFileBytes = 1 << 20
    /// One compact JWS. A single QR code holds at most 1,195 characters; files hold larger.
    public var maxJWSBytes = 256 << 10
    /// What a payload may inflate to: the inflater stops there (a zip bomb of any ratio costs
    /// at most this much memory).
    public var maxInflatedBytes = 1 << 20
    public var maxCardsPerFile = 64
    /// The issuer's JWKS file.
    public var maxKeysBytes = 256 << 10
    public var maxKeys = 64
    /// JSON nesting, checked before the JSON parser runs (its recursion is bounded by this).
    public var maxJSONDepth = 32
    /// FHIR bundle entries read per card; item names kept per record, each at most `maxTextBytes`.
    public var maxEntries = 256
    public var maxTextBytes = 512
    /// A record's item names together. With the other fields' bounds this bounds what a record
    /// adds to a listing without its JWS (`VerifiableRecordList`'s summaries): 16 KiB of names,
    /// 32 types of 256 bytes, a name and an issuer of 512, under 27 KiB with their tags, so the
    /// import's answer of 64 records is under 1.8 MB, within one 4 MiB frame. 256 names of 512
    /// bytes (128 KiB) made a 64-card file's answer 8.5 MB (red team, session 22, finding 3).
    public var maxItemNameBytes = 16 << 10

    public init() {}

    public static let standard = SmartHealthCardLimits()
}
