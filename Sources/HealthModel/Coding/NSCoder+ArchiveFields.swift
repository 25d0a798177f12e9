public import Foundation

/// How the model's and the SDK's `NSSecureCoding` classes read a field, in one place.
///
/// swift-corelibs-foundation's `decodeObject(of:forKey:)` on an absent key records a decoding
/// error, and an unarchiver made directly (failure policy `.raiseException`) then traps; asking
/// `containsValue(forKey:)` first keeps a short or tampered archive a decoding failure (nil), as
/// Apple's secure decoding makes it. Every field is written as a string, number or data object
/// (never as a plain `encode(Double)` value, which `decodeObject` cannot tell from tampering and
/// traps on), and no class archives another of its own kind nested inside: corelibs traps
/// (`_isClassAllowed` calls `fatalError`) when a nested object's class is not the one asked for,
/// before any of this code runs, so nesting would let a tampered archive take the app down.
extension NSCoder {
    /// `.some(nil)` when the key is absent (the property was nil when archived), nil when the key
    /// holds something other than a string (a tampered archive), else the string.
    package func decodeOptionalString(forKey key: String) -> String?? {
        guard containsValue(forKey: key) else { return .some(nil) }
        return decodeObject(of: NSString.self, forKey: key).map { String($0) }
    }

    /// The string under `key`, nil when it is absent or not a string.
    package func decodeRequiredString(forKey key: String) -> String? {
        decodeOptionalString(forKey: key) ?? nil
    }

    /// The number under `key` (written as an `NSNumber` object), nil when it is absent or not a
    /// number.
    package func decodeRequiredNumber(forKey key: String) -> NSNumber? {
        guard containsValue(forKey: key) else { return nil }
        return decodeObject(of: NSNumber.self, forKey: key)
    }

    /// The bytes under `key` (written as an `NSData` object), nil when absent or not data.
    package func decodeRequiredData(forKey key: String) -> Data? {
        guard containsValue(forKey: key) else { return nil }
        return decodeObject(of: NSData.self, forKey: key).map { Data($0) }
    }
}
