import Foundation

/// Unsigned SMART Health Cards for the parser's tests and the end-to-end tests (their signature is
/// 64 zero bytes): a payload's JSON as raw
/// DEFLATE in stored blocks (RFC 1951 §3.2.4, BTYPE 00), which needs no compressor.
public enum TestCards {
    public static func storedDeflate(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var chunks = stride(from: 0, to: bytes.count, by: 65_535).map { Array(bytes[$0..<min($0 + 65_535, bytes.count)]) }
        if chunks.isEmpty { chunks = [[]] }
        for (index, chunk) in chunks.enumerated() {
            out.append(index == chunks.count - 1 ? 1 : 0)
            let length = UInt16(chunk.count)
            out += [UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8(~length >> 8)]
            out += chunk
        }
        return out
    }

    public static func b64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public static let header = b64url(Array(#"{"zip":"DEF","alg":"ES256","kid":"test"}"#.utf8))

    public static func jws(payload: String, header: String = header) -> String {
        header + "." + b64url(storedDeflate(Array(payload.utf8))) + "." + b64url([UInt8](repeating: 0, count: 64))
    }

    public static func payload(types: [String] = ["https://smarthealth.cards#health-card", "https://smarthealth.cards#immunization"],
                        name: String = "Jane Doe", date: String = "2021-03-01", vaccine: String = "COVID-19 vaccine",
                        issued: Int = 1_622_505_600) -> String {
        let typeList = types.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"iss":"https://issuer.example.org","nbf":\#(issued),"vc":{"type":[\#(typeList)],"credentialSubject":{"fhirVersion":"4.0.1","fhirBundle":{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"Patient","name":[{"text":"\#(name)"}],"birthDate":"1980-05"}},{"resource":{"resourceType":"Immunization","vaccineCode":{"text":"\#(vaccine)"},"occurrenceDateTime":"\#(date)"}}]}}}}"#
    }

    /// A card file of `cards` (`.smart-health-card`).
    public static func file(_ cards: [String]) -> [UInt8] {
        Array(#"{"verifiableCredential":[\#(cards.map { "\"\($0)\"" }.joined(separator: ","))]}"#.utf8)
    }

    /// The QR code's numeric form of one JWS.
    public static func numeric(_ jws: String) -> String {
        "shc:/" + jws.unicodeScalars.map { String(format: "%02d", Int($0.value) - 45) }.joined()
    }
}
