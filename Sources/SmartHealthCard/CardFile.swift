import Foundation

/// The compact JWSs of an import file: a `.smart-health-card` file (JSON with
/// `verifiableCredential: [jws, …]`), one compact JWS, or one single-chunk `shc:/` numeric QR
/// string. The bytes must be UTF-8 text without NUL, within the file bound.
enum CardFile {
    static func compactJWSs(_ bytes: [UInt8], limits: SmartHealthCardLimits) throws(SmartHealthCardError) -> [String] {
        guard bytes.count <= limits.maxFileBytes else { throw .tooLarge(what: "the file", limit: limits.maxFileBytes) }
        guard !bytes.contains(0) else { throw .notText("it holds a NUL byte") }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notText("it is not valid UTF-8") }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("shc:/") { return [try NumericQR.jws(trimmed, limits: limits)] }
        if trimmed.hasPrefix("{") {
            let object = try BoundedJSON.object(Array(trimmed.utf8), maxDepth: limits.maxJSONDepth, what: "the file")
            guard let credentials = object["verifiableCredential"] as? [Any] else {
                throw .malformedPayload("the file has no verifiableCredential array")
            }
            guard !credentials.isEmpty, credentials.count <= limits.maxCardsPerFile else {
                throw .malformedPayload("the file must hold 1 to \(limits.maxCardsPerFile) cards")
            }
            return try credentials.map { (credential) throws(SmartHealthCardError) -> String in
                guard let jws = credential as? String else { throw .malformedPayload("a verifiableCredential entry is not a string") }
                return jws
            }
        }
        if trimmed.split(separator: ".", omittingEmptySubsequences: false).count == 3 { return [trimmed] }
        throw .unrecognizedFile
    }
}

/// The `shc:/` numeric form of a QR code (spec.smarthealth.cards, "Encoding Chunks as QR
/// codes"): each pair of digits is a character's code minus 45.
enum NumericQR {
    static func jws(_ text: String, limits: SmartHealthCardLimits) throws(SmartHealthCardError) -> String {
        let digits = Substring(text.dropFirst("shc:/".count))
        // "shc:/1/2/…": one chunk of several, which alone is not a card.
        if digits.contains("/") { throw .chunkedQRUnsupported }
        guard digits.utf8.count <= limits.maxJWSBytes * 2 else { throw .tooLarge(what: "the QR string", limit: limits.maxJWSBytes * 2) }
        guard digits.utf8.count % 2 == 0 else { throw .malformedNumericQR("an odd number of digits") }
        var characters: [UInt8] = []
        characters.reserveCapacity(digits.utf8.count / 2)
        var iterator = digits.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(high), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(low) else {
                throw .malformedNumericQR("a character that is not a digit")
            }
            let value = Int(high - UInt8(ascii: "0")) * 10 + Int(low - UInt8(ascii: "0"))
            guard value <= 77 else { throw .malformedNumericQR("a pair above 77") }
            characters.append(UInt8(value + 45))
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
