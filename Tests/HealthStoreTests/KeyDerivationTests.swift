import CPageCipher
import Foundation
import GRDB
import Testing

@testable import HealthStore

/// The one HKDF-SHA256 of the package (`ohk_hkdf_sha256`, CPageCipher's kdf.c) against RFC 5869's
/// test vectors, and its two users against values computed outside this code (Python's
/// `cryptography` and a plain HMAC-SHA256 HKDF, which agree): the page key a store's pages are
/// sealed with, and the key of a pending-journal entry. A change to the derivation — a salt
/// where there was none, another label, a truncated output — would leave every existing store
/// and journal unreadable; these fail first.
@Suite(.timeLimit(.minutes(10))) struct KeyDerivationTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var secret: [UInt8], salt: [UInt8], info: [UInt8]
        var expected: String
        var testDescription: String { name }
    }

    /// RFC 5869 appendix A, test cases 1–3 (SHA-256).
    static let rfc5869: [Vector] = [
        Vector(name: "A.1 basic", secret: Array(repeating: 0x0b, count: 22), salt: Array(0x00...0x0c), info: Array(0xf0...0xf9),
               expected: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        Vector(name: "A.2 longer inputs and output", secret: Array(0x00...0x4f), salt: Array(0x60...0xaf), info: Array(0xb0...0xff),
               expected: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09"
                   + "da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"),
        Vector(name: "A.3 no salt, no info", secret: Array(repeating: 0x0b, count: 22), salt: [], info: [],
               expected: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    @Test(arguments: rfc5869)
    func matchesRFC5869(vector: Vector) {
        let count = vector.expected.count / 2
        var out = [UInt8](repeating: 0, count: count)
        let ok = ohk_hkdf_sha256(vector.secret, vector.secret.count, vector.salt, vector.salt.count,
                                 vector.info, vector.info.count, &out, count)
        #expect(ok == 1)
        #expect(Self.hex(out) == vector.expected)
    }

    /// Page 1 of a store sealed under data key 00 01 … 1f opens, outside the VFS, under
    /// HKDF-SHA256(data key, no salt, "openhealthkit page v1") computed elsewhere: the store's
    /// page key is exactly that, as it has been since the format was made.
    @Test func aStorePageOpensUnderTheHKDFPageKey() throws {
        let directory = TemporaryDirectory()
        let dataKey = Self.secret(Array(0x00...0x1f))
        let key = try RegisteredCipherKey(dataKey)
        let layout = try StoreLayout(directory: directory.path, create: false)
        let queue = try CipherDatabaseOpener.openQueue(layout, key: key)
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        try queue.close()

        let page = try [UInt8](Data(contentsOf: URL(fileURLWithPath: layout.databasePath)).prefix(Int(OHK_CIPHER_PAGE_SIZE)))
        try #require(page.count == Int(OHK_CIPHER_PAGE_SIZE))
        let body = Int(OHK_CIPHER_PAGE_SIZE - OHK_CIPHER_RESERVED_BYTES)
        let nonce = Array(page[body ..< body + Int(OHK_AEAD_NONCE_BYTES)])
        let tag = Array(page[(body + Int(OHK_AEAD_NONCE_BYTES))...])
        // README.md (CPageCipher): "OHK1" | file kind 1, main database (u32 BE) | page 1 (u64 BE).
        let aad = Array("OHK1".utf8) + [0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 1]
        let pageKey = try Self.bytes("ebbc05dda879aecca88305f2d91d374845ac8b2f7a0e24c8caa3f9f1142b6346")
        var plain = [UInt8](repeating: 0, count: body)
        let opened = ohk_aead_open(pageKey, aad, aad.count, page, body, nonce, tag, &plain)
        #expect(opened == 1, "page 1 does not open under HKDF(data key, \"openhealthkit page v1\")")
        #expect(Array(plain.prefix(16)) == Array("SQLite format 3\0".utf8))
    }

    /// An entry sealed by the scheme PendingJournalSeal documents — X25519, HKDF-SHA256 with salt
    /// ephemeral public ‖ journal public and info "openhealthkit pending journal v1", AES-256-GCM —
    /// by an independent implementation, with fixed keys and nonce, opens; with another
    /// position (associated data) it does not.
    @Test func aJournalEntrySealedElsewhereOpens() throws {
        let journalPrivate = Self.secret(Array(0x40...0x5f))
        let journalPublic = try Self.bytes("79a631eede1bf9c98f12032cdeadd0e7a079398fc786b88cc846ec89af85a51a")
        let sealed = try Self.bytes("493e82fc74464a59268817623d2053c5eb8e2cc4a988b4fee179ec6b010d531d"  // ephemeral public
                                    + "c0c1c2c3c4c5c6c7c8c9cacb"  // nonce
                                    + "702bf49ec029344584029ad394c26a50"  // tag
                                    + "efaa82d60cdb354b3a8b2226897812947308fb477b")  // ciphertext
        let aad = Array("generation 7, entry 3".utf8)
        let opened = try PendingJournalSeal.open(sealed[...], privateKey: journalPrivate, publicKey: journalPublic, aad: aad)
        #expect(opened == Array("a locked save's bytes".utf8))
        let moved = try PendingJournalSeal.open(sealed[...], privateKey: journalPrivate, publicKey: journalPublic,
                                                aad: Array("generation 7, entry 4".utf8))
        #expect(moved == nil)
    }

    static func secret(_ bytes: [UInt8]) -> SecretBytes {
        let secret = SecretBytes(zeroedCount: bytes.count)
        secret.withUnsafeMutableBytes { $0.update(from: bytes, count: bytes.count) }
        return secret
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    struct BadHex: Error {}

    static func bytes(_ hex: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) ?? hex.endIndex
            guard let byte = UInt8(hex[index ..< next], radix: 16) else { throw BadHex() }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
