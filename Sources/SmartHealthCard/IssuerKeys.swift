import CHealthCard
import Foundation

/// An issuer's JWKS (the file at its `iss` + "/.well-known/jwks.json"), given by the user at import
/// with `--issuer-keys FILE`: healthd fetches nothing. Only P-256 keys (`kty` EC, `crv` P-256)
/// are kept; a card verifies when the key of its header's `kid` checks its ES256 signature.
/// What this proves: the card was signed by whoever holds that key, and is unchanged since. That
/// the key is the issuer's is the user's word (which file they gave), not checked here.
public struct IssuerKeys: Sendable {
    struct Key: Sendable {
        let x: [UInt8]
        let y: [UInt8]
    }

    let keys: [String: Key]

    public init(_ bytes: [UInt8], limits: SmartHealthCardLimits = .standard) throws(SmartHealthCardError) {
        guard bytes.count <= limits.maxKeysBytes else { throw .tooLarge(what: "the issuer key file", limit: limits.maxKeysBytes) }
        guard !bytes.contains(0), String(validating: bytes, as: UTF8.self) != nil else { throw .malformedKeys("it is not UTF-8 text") }
        let object: [String: Any]
        do {
            object = try BoundedJSON.object(bytes, maxDepth: limits.maxJSONDepth, what: "the issuer key file")
        } catch {
            throw .malformedKeys("it is not a JSON object")
        }
        guard let list = object["keys"] as? [Any], list.count <= limits.maxKeys else {
            throw .malformedKeys("no keys array of at most \(limits.maxKeys) keys")
        }
        var keys: [String: Key] = [:]
        for case let key as [String: Any] in list {
            guard key["kty"] as? String == "EC", key["crv"] as? String == "P-256", let kid = key["kid"] as? String,
                  let x = (key["x"] as? String).flatMap({ Base64URL.decode(Substring($0)) }),
                  let y = (key["y"] as? String).flatMap({ Base64URL.decode(Substring($0)) }), x.count == 32, y.count == 32 else {
                continue
            }
            keys[kid] = Key(x: x, y: y)
        }
        guard !keys.isEmpty else { throw .malformedKeys("no P-256 key with kid, x and y") }
        self.keys = keys
    }

    /// Throws unless the card's signature verifies with its `kid`'s key.
    func verify(_ jws: CompactJWS) throws(SmartHealthCardError) {
        guard let key = keys[jws.kid] else { throw .noKeyForCard(kid: jws.kid) }
        let result = key.x.withUnsafeBufferPointer { x in
            key.y.withUnsafeBufferPointer { y in
                jws.signingInput.withUnsafeBufferPointer { message in
                    jws.signature.withUnsafeBufferPointer { signature in
                        hc_es256_verify(x.baseAddress, y.baseAddress, message.baseAddress, message.count, signature.baseAddress)
                    }
                }
            }
        }
        switch result {
        case 1: return
        case 0: throw .signatureInvalid
        default: throw .malformedKeys("key \(jws.kid.prefix(64)) is not a point of P-256")
        }
    }
}
