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
        // One buffer of the encoding's exact size: every durable save hashes an entry, and growing
        // the array and copying each string into an array of its own first cost 6.7k
        // instructions an entry, against 9k for SHA-256 itself (issue 17, Benchmarks/README.md
        // "Session 23"). The bytes are the same (`AccessLogChainHashTests`).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 * 9 + 1 + fields.actor.utf8.count + (fields.appID?.utf8.count ?? 0) + fields.action.utf8.count
                              + fields.typesJSON.utf8.count + fields.detail.utf8.count + fields.previousHash.count)
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

    /// Big-endian, 8 bytes.
    private static func append(_ value: Int64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> Int64(shift)))
        }
    }

    /// Its UTF-8 length, then its UTF-8 bytes (copied from the string's own storage when it has
    /// contiguous UTF-8, as native Swift strings do).
    private static func append(_ text: String, to bytes: inout [UInt8]) {
        let utf8 = text.utf8
        append(Int64(utf8.count), to: &bytes)
        if utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: utf8)
        }
    }
}
