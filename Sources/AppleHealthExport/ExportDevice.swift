import HealthModel

/// Apple's export writes a sample's device as the object's description:
/// `<<HKDevice: 0x282a45810>, name:Apple Watch, manufacturer:Apple Inc., model:Watch,
/// hardware:Watch2,4, software:4.3.1>`. Fields are `key:value` separated by ", " — values may
/// themselves hold commas ("Watch2,4"), so a part that is not `key:` of a known key continues
/// the previous value.
enum ExportDevice {
    // Computed: key paths are not Sendable, so a stored static table would not compile in Swift 6.
    private static var fields: [String: WritableKeyPath<DeviceRecord, String?>] {[
        "name": \.name, "manufacturer": \.manufacturer, "model": \.model, "hardware": \.hardwareVersion,
        "firmware": \.firmwareVersion, "software": \.softwareVersion, "localIdentifier": \.localIdentifier,
        "UDIDeviceIdentifier": \.udiDeviceIdentifier, "UDIDeviceIdentifierKey": \.udiDeviceIdentifier,
    ]}

    static func parse(_ text: String) -> DeviceRecord? {
        guard text.hasPrefix("<<HKDevice"), text.hasSuffix(">"), let headerEnd = text.range(of: ">, ") else { return nil }
        let body = text[headerEnd.upperBound..<text.index(before: text.endIndex)]
        let fields = Self.fields
        var device = DeviceRecord()
        var current: WritableKeyPath<DeviceRecord, String?>?
        for part in body.components(separatedBy: ", ") {
            if let colon = part.firstIndex(of: ":"), let field = fields[String(part[..<colon])] {
                current = field
                device[keyPath: field] = String(part[part.index(after: colon)...])
            } else if let current {
                device[keyPath: current] = (device[keyPath: current] ?? "") + ", " + part
            }
        }
        return device == DeviceRecord() ? nil : device
    }
}

extension ExportDevice {
    /// The description `parse` reads: `<<HKDevice: 0x0>, name:Apple Watch, …>`. Apple's header
    /// holds an object address, meaningless outside the phone; a fixed one stands in.
    static func describe(_ device: DeviceRecord) -> String {
        let fields: [(String, String?)] = [
            ("name", device.name), ("manufacturer", device.manufacturer), ("model", device.model),
            ("hardware", device.hardwareVersion), ("firmware", device.firmwareVersion), ("software", device.softwareVersion),
            ("localIdentifier", device.localIdentifier), ("UDIDeviceIdentifier", device.udiDeviceIdentifier),
        ]
        let body = fields.compactMap { key, value in value.map { "\(key):\($0)" } }.joined(separator: ", ")
        return "<<HKDevice: 0x0>, \(body)>"
    }
}
