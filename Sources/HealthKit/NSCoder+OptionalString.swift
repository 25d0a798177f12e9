import Foundation

/// How the SDK's `NSSecureCoding` classes read a string field, in one place.
///
/// swift-corelibs-foundation's `decodeObject(of:forKey:)` on an absent key records a decoding
/// error, and an unarchiver made directly (failure policy `.raiseException`) then traps; asking
/// `containsValue(forKey:)` first keeps a short or tampered archive a decoding failure (nil), as
/// Apple's secure decoding makes it.
extension NSCoder {
    /// `.some(nil)` when the key is absent (the property was nil when archived), nil when the key
    /// holds something other than a string (a tampered archive), else the string.
    func decodeOptionalString(forKey key: String) -> String?? {
        guard containsValue(forKey: key) else { return .some(nil) }
        return decodeObject(of: NSString.self, forKey: key).map { String($0) }
    }

    /// The string under `key`, nil when it is absent or not a string.
    func decodeRequiredString(forKey key: String) -> String? {
        decodeOptionalString(forKey: key) ?? nil
    }
}
