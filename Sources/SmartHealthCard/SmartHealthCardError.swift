/// Why a card (or the issuer's key set) was refused. Each says what to fix; none quotes the
/// input beyond a short, printable prefix.
public enum SmartHealthCardError: Error, Equatable, CustomStringConvertible {
    case tooLarge(what: String, limit: Int)
    case notText(String)
    case unrecognizedFile
    case malformedNumericQR(String)
    case chunkedQRUnsupported
    case malformedJWS(String)
    case unsupportedHeader(String)
    case payloadTooLarge(limit: Int)
    case malformedPayload(String)
    /// A decoded string of the card holds a control, bidirectional or separator character.
    case unsafeText(field: String, scalar: UInt32)
    case itemNamesTooLarge(limit: Int)
    case malformedKeys(String)
    case noKeyForCard(kid: String)
    case signatureInvalid

    public var description: String {
        switch self {
        case let .tooLarge(what, limit): "\(what) is larger than \(limit) bytes"
        case let .notText(why): "the file is not text: \(why)"
        case .unrecognizedFile: "not a SMART Health Card: expected a .smart-health-card JSON file, a compact JWS or a shc:/ QR string"
        case let .malformedNumericQR(why): "the shc:/ string is malformed: \(why)"
        case .chunkedQRUnsupported: "a chunked shc:/N/M/ QR string is not supported: import the card's file or its whole JWS"
        case let .malformedJWS(why): "the card's JWS is malformed: \(why)"
        case let .unsupportedHeader(why): "the card's JWS header is not a SMART Health Card's (ES256, zip DEF): \(why)"
        case let .payloadTooLarge(limit): "the card's payload inflates to more than \(limit) bytes"
        case let .malformedPayload(why): "the card's payload is not a SMART Health Card's: \(why)"
        case let .unsafeText(field, scalar):
            "\(field) holds the character U+\(String(scalar, radix: 16, uppercase: true).leftPadded(to: 4)) (a control, "
                + "bidirectional or line-separator character), which no text of a card may hold"
        case let .itemNamesTooLarge(limit):
            "the card's entry names (vaccines, tests) take more than \(limit) bytes together; a record keeps at most that, "
                + "so that every listing carrying it fits a frame"
        case let .malformedKeys(why): "the issuer key file is not a JWKS of P-256 keys: \(why)"
        case let .noKeyForCard(kid): "the issuer key file has no key \(kid.prefix(64)) for this card"
        case .signatureInvalid: "the card's signature does not verify with the issuer's key"
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
