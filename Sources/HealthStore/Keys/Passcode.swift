import CPageCipher

/// A passcode as the store handles it: its bytes (UTF-8 as typed) copied once into memory the
/// store controls and cleansed when the last reference goes, never held in a Swift `String` or
/// array that could leave copies behind. Never printed: `description` hides it.
public final class Passcode: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: the bytes are written once in init and only read afterwards.
    let secret: SecretBytes

    /// Copies `bytes`; the caller erases its own copy (`Passcode.erase`).
    public init(copying bytes: UnsafeRawBufferPointer) {
        secret = SecretBytes(zeroedCount: bytes.count)
        if let base = bytes.baseAddress {
            secret.withUnsafeMutableBytes { $0.update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        }
    }

    /// Copies the bytes of `array`, then erases `array` in place.
    public convenience init(consuming array: inout [UInt8]) {
        self.init(copying: array.withUnsafeBytes { $0 })
        Self.erase(&array)
    }

    /// From text (tests, and tools that already hold it as a string).
    public convenience init(_ text: String) {
        var bytes = Array(text.utf8)
        self.init(consuming: &bytes)
    }

    public var isEmpty: Bool { secret.count == 0 }

    public var description: String { "Passcode(\(secret.count) bytes, hidden)" }

    /// Overwrites `bytes` with zeros in a way the compiler may not drop (OPENSSL_cleanse).
    public static func erase(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { ohk_cleanse($0.baseAddress, $0.count) }
    }

    func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try secret.withUnsafeBytes { (pointer) throws(E) in try body(UnsafeRawBufferPointer(start: pointer, count: secret.count)) }
    }
}
