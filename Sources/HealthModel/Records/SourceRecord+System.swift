extension SourceRecord {
    /// Longest product type recorded, in UTF-8 bytes: Apple's are a dozen ("iPhone14,2"), a
    /// DMI product name a few dozen. A longer one (a hand-edited export) is not recorded.
    public static let maximumProductTypeLength = 256

    /// `text` as a product type, or nil when it cannot be one: empty, longer than
    /// `maximumProductTypeLength` bytes, or holding a control character (NUL included), which
    /// no product name has and which would make the value print and compare surprisingly.
    public static func productType(_ text: String?) -> String? {
        guard let text, !text.isEmpty, text.utf8.count <= maximumProductTypeLength,
              !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        return text
    }

    /// This source with the product type and system an imported object was saved on. Apple's
    /// export has no field of its own for them; the object's device description holds them
    /// (`hardware:iPhone14,2, software:16.0`), the same values Apple's `HKDevice.local()` and
    /// `HKSourceRevision` report for what the phone itself saved. A value that is not one
    /// (`productType(_:)`, `SystemVersion(parsing:)`) is left unrecorded, never guessed.
    public func savedOn(_ device: DeviceRecord?) -> SourceRecord {
        var stamped = self
        stamped.productType = Self.productType(device?.hardwareVersion)
        stamped.operatingSystemVersion = device?.softwareVersion.flatMap { SystemVersion(parsing: $0) } ?? .unrecorded
        return stamped
    }
}
