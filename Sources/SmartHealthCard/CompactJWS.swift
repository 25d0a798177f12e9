import CHealthCard
import Foundation

/// One card's compact JWS, split and decoded, its payload inflated within the bound. Nothing
/// here checks the signature (`IssuerKeys`).
struct CompactJWS {
    let kid: String
    /// The bytes the signature covers: the header and payload segments as they were given.
    let signingInput: [UInt8]
    let signature: [UInt8]
    let payload: [UInt8]
    let compact: String

    init(_ compact: String, limits: SmartHealthCardLimits) throws(SmartHealthCardError) {
        guard compact.utf8.count <= limits.maxJWSBytes else { throw .tooLarge(what: "a card's JWS", limit: limits.maxJWSBytes) }
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformedJWS("it does not have three parts") }
        guard let headerBytes = Base64URL.decode(parts[0]), let compressed = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]) else {
            throw .malformedJWS("a part is not base64url")
        }
        let header = try BoundedJSON.object(headerBytes, maxDepth: limits.maxJSONDepth, what: "the JWS header")
        guard header["alg"] as? String == "ES256" else { throw .unsupportedHeader("alg is not ES256") }
        guard header["zip"] as? String == "DEF" else { throw .unsupportedHeader("zip is not DEF") }
        guard let kid = header["kid"] as? String, !kid.isEmpty, kid.utf8.count <= 256 else {
            throw .unsupportedHeader("no kid")
        }
        guard signature.count == 64 else { throw .malformedJWS("the signature is not 64 bytes (r||s)") }
        self.kid = kid
        self.signature = signature
        self.signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
        self.payload = try Self.inflate(compressed, limit: limits.maxInflatedBytes)
        self.compact = compact
    }

    /// Raw DEFLATE into a buffer of `limit` bytes: past it, refused (the inflater stops there).
    static func inflate(_ compressed: [UInt8], limit: Int) throws(SmartHealthCardError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: limit)
        var length = 0
        let status = compressed.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                hc_inflate_raw(input.baseAddress, input.count, out.baseAddress, out.count, &length)
            }
        }
        switch status {
        case 0: return Array(output.prefix(length))
        case -2: throw .payloadTooLarge(limit: limit)
        default: throw .malformedJWS("the payload is not raw DEFLATE")
        }
    }
}
