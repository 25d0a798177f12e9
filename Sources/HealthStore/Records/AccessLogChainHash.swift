import CPageCipher

/// The hash that chains an access-log entry to the one before it: SHA-256 over a canonical
/// encoding of every stored column plus the previous entry's hash. Fixed-width big-endian
/// integers and length-prefixed strings make the encoding unambiguous (no two different rows
/// encode to the same bytes), so any edit of any column changes the hash.
enum AccessLogChainHash {
    static let length = Int(OHK_SHA256_BYTES)
    /// The "previous hash" of entry 1.
    static let genesis = [UInt8](repeating: 0, count: length)

    struct Fields {
        var sequence: Int64
        var timeMicros: Int64
        var actor: String
        var appID: String?
        var action: String
        /// The stored JSON text, hashed as stored: a reformatted array is an edit too.
        var typesJSON: String
        var count: Int64
        var detail: String
        var previousHash: [UInt8]
    }

    /// Thrown only when OpenSSL cannot compute a digest (out of memory): the entry is then not
    /// written rather than written with a wrong hash.
    struct DigestUnavailable: Error, CustomStringConvertible {
        var description: String { "OpenSSL could not compute a SHA-256 digest for the access log" }
    }

    static func hash(_ fields: Fields) throws(DigestUnavailable) -> [UInt8] {
        var bytes: [UInt8] = []
        append(fields.sequence, to: &bytes)
        append(fields.timeMicros, to: &bytes)
        append(fields.actor, to: &bytes)
        // Absent and empty app ids must differ: a presence byte before the string.
        bytes.append(fields.appID == nil ? 0 : 1)
        append(fields.appID ?? "", to: &bytes)
        append(fields.action, to: &bytes)
        append(fields.typesJSON, to: &bytes)
        append(fields.count, to: &bytes)
        append(fields.detail, to: &bytes)
        append(Int64(fields.previousHash.count), to: &bytes)
        bytes += fields.previousHash
        var digest = [UInt8](repeating: 0, count: length)
        guard ohk_sha256(bytes, bytes.count, &digest) == 1 else { throw DigestUnavailable() }
        return digest
    }

    private static func append(_ value: Int64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        let utf8 = Array(text.utf8)
        append(Int64(utf8.count), to: &bytes)
        bytes += utf8
    }
}
