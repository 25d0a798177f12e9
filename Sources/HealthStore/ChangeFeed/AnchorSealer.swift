import CPageCipher
import Foundation

/// Turns a `ChangeCursor` into the opaque anchor an app holds (`HKQueryAnchor`), and back.
///
/// An anchor is `version (1) ‖ nonce (12) ‖ AES-256-GCM(cursor) (17) ‖ tag (16)`: 46 bytes,
/// always. The associated data binds it to the app and the type it was issued for, so an anchor
/// from another app, for another type, or with any byte changed fails authentication and is
/// refused the same way in every case. An anchor of a query over several types
/// (`queryDescriptors:`) is bound to the set of types the same way: it opens only for the same
/// set, in any order; a set of one type is that type, so both forms of a one-type query share
/// anchors.
///
/// Why an anchor reveals nothing: the cursor's change number advances with every write to the
/// store, including writes the app may not read. In the clear, two anchors taken a minute apart
/// would tell a denied app that someone saved something. Sealed, the app sees only ciphertext
/// under a key it never holds, with a fresh random nonce every time (so even an unchanged
/// cursor seals to different bytes) and a constant length (so the size of the numbers does not
/// show through). Authenticity matters as much: an app cannot forge a cursor to probe positions.
///
/// The key lives in the encrypted store (migration "v6: change feed"), so anchors stay valid
/// across reconnects and broker restarts. `@unchecked Sendable`: the key is immutable after
/// `init` and only read.
public final class AnchorSealer: @unchecked Sendable {
    static let version: UInt8 = 1
    static let plaintextLength = 17
    /// The length of every anchor.
    public static let anchorLength = 1 + Int(OHK_AEAD_NONCE_BYTES) + plaintextLength + Int(OHK_AEAD_TAG_BYTES)

    private let key: SecretBytes

    /// A sealer over `key` (32 bytes); the key is copied into memory that is cleansed on release.
    init(key: Data) throws(StoreOpenError) {
        guard key.count == Int(OHK_CIPHER_KEY_BYTES) else {
            throw .cryptoFailure(operation: "loading the anchor key (it is \(key.count) bytes, not \(OHK_CIPHER_KEY_BYTES))")
        }
        let secret = SecretBytes(zeroedCount: key.count)
        secret.withUnsafeMutableBytes { target in key.copyBytes(to: target, count: key.count) }
        self.key = secret
    }

    /// The anchor for `cursor`, valid only for `appID` querying `typeIdentifier`.
    public func seal(_ cursor: ChangeCursor, appID: String, typeIdentifier: String) throws(StoreOpenError) -> [UInt8] {
        try seal(cursor, appID: appID, typeIdentifiers: [typeIdentifier])
    }

    /// The anchor for `cursor`, valid only for `appID` querying exactly the types in `typeIdentifiers`.
    public func seal(_ cursor: ChangeCursor, appID: String, typeIdentifiers: Set<String>) throws(StoreOpenError) -> [UInt8] {
        var plaintext = Self.encode(cursor)
        defer { plaintext.withUnsafeMutableBytes { ohk_cleanse($0.baseAddress, $0.count) } }
        var nonce = [UInt8](repeating: 0, count: Int(OHK_AEAD_NONCE_BYTES))
        var ciphertext = [UInt8](repeating: 0, count: Self.plaintextLength)
        var tag = [UInt8](repeating: 0, count: Int(OHK_AEAD_TAG_BYTES))
        let aad = Self.associatedData(appID: appID, typeIdentifiers: typeIdentifiers)
        let ok = key.withUnsafeBytes { key in
            ohk_aead_seal(key, aad, aad.count, plaintext, plaintext.count, &nonce, &ciphertext, &tag)
        }
        guard ok == 1 else { throw .cryptoFailure(operation: "sealing a query anchor") }
        return [Self.version] + nonce + ciphertext + tag
    }

    /// The cursor inside `anchor`, or nil when the anchor was not sealed by this store for this
    /// app and type (or was altered). Callers report every nil the same way.
    public func open(_ anchor: [UInt8], appID: String, typeIdentifier: String) -> ChangeCursor? {
        open(anchor, appID: appID, typeIdentifiers: [typeIdentifier])
    }

    /// The cursor inside `anchor`, or nil when it was not sealed by this store for this app and
    /// exactly this set of types (or was altered).
    public func open(_ anchor: [UInt8], appID: String, typeIdentifiers: Set<String>) -> ChangeCursor? {
        guard anchor.count == Self.anchorLength, anchor[0] == Self.version else { return nil }
        let nonceEnd = 1 + Int(OHK_AEAD_NONCE_BYTES)
        let cipherEnd = nonceEnd + Self.plaintextLength
        let nonce = Array(anchor[1..<nonceEnd])
        let ciphertext = Array(anchor[nonceEnd..<cipherEnd])
        let tag = Array(anchor[cipherEnd...])
        var plaintext = [UInt8](repeating: 0, count: Self.plaintextLength)
        defer { plaintext.withUnsafeMutableBytes { ohk_cleanse($0.baseAddress, $0.count) } }
        let aad = Self.associatedData(appID: appID, typeIdentifiers: typeIdentifiers)
        let ok = key.withUnsafeBytes { key in
            ohk_aead_open(key, aad, aad.count, ciphertext, ciphertext.count, nonce, tag, &plaintext)
        }
        guard ok == 1 else { return nil }
        return Self.decode(plaintext)
    }

    /// Length-prefixed fields, so no app id and list of types can read as another: the app id,
    /// then the types in sorted order (a set has one spelling). For one type this is the
    /// one-type layout anchors have always had, so anchors already issued stay valid; a longer
    /// set cannot collide with it, as its second field's prefix would not span the rest.
    private static func associatedData(appID: String, typeIdentifiers: Set<String>) -> [UInt8] {
        var data = Array("openhealthkit anchor".utf8) + [version]
        for field in [appID] + typeIdentifiers.sorted() {
            let bytes = Array(field.utf8)
            data += bigEndian(UInt64(bytes.count)) + bytes
        }
        return data
    }

    private static func encode(_ cursor: ChangeCursor) -> [UInt8] {
        bigEndian(UInt64(bitPattern: cursor.change)) + [cursor.table.rawValue] + bigEndian(UInt64(bitPattern: cursor.row))
    }

    private static func decode(_ bytes: [UInt8]) -> ChangeCursor? {
        guard bytes.count == plaintextLength, let table = ChangeCursor.Table(rawValue: bytes[8]) else { return nil }
        let number = { (range: Range<Int>) in Int64(bitPattern: bytes[range].reduce(0) { $0 << 8 | UInt64($1) }) }
        return ChangeCursor(change: number(0..<8), table: table, row: number(9..<17))
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}
