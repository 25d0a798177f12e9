import HealthModel
import Synchronization

/// Apple's export writes a sample's device as the object's description:
/// `<<HKDevice: 0x282a45810>, name:Apple Watch, manufacturer:Apple Inc., model:Watch,
/// hardware:Watch2,4, software:4.3.1>`. Fields are `key:value` separated by ", " — values may
/// themselves hold commas ("Watch2,4"), so a part that is not `key:` of a known key continues
/// the previous value.
enum ExportDevice {
    /// The device field a description's key names (a switch: key paths are not Sendable, so a
    /// stored static table would not compile in Swift 6, and a computed one was rebuilt per record).
    private static func field(_ key: Substring) -> WritableKeyPath<DeviceRecord, String?>? {
        switch key {
        case "name": \.name
        case "manufacturer": \.manufacturer
        case "model": \.model
        case "hardware": \.hardwareVersion
        case "firmware": \.firmwareVersion
        case "software": \.softwareVersion
        case "localIdentifier": \.localIdentifier
        case "UDIDeviceIdentifier", "UDIDeviceIdentifierKey": \.udiDeviceIdentifier
        default: nil
        }
    }

    /// Descriptions already parsed: an export names a handful of devices, each on thousands of
    /// records, and parsing one took a fifth of the import's reading time. Bounded: past
    /// `memoLimit` different descriptions it starts over.
    private static let memo = Mutex<[String: DeviceRecord?]>([:])
    static let memoLimit = 256

    static func parse(_ text: String) -> DeviceRecord? {
        if let known = memo.withLock({ $0[text] }) { return known }
        let device = parseUncached(text)
        memo.withLock { table in
            if table.count >= memoLimit { table.removeAll(keepingCapacity: true) }
            table[text] = .some(device)
        }
        return device
    }

    static func parseUncached(_ text: String) -> DeviceRecord? {
        // The standard library's `firstRange(of:)` and `split(separator:)`, not Foundation's
        // `range(of:)`/`components(separatedBy:)`: those compare with locale options and took a
        // fifth of the import's reading time (every record of an Apple Watch names its device).
        guard text.hasPrefix("<<HKDevice"), text.hasSuffix(">"), let headerEnd = text.firstRange(of: ">, ") else { return nil }
        let body = text[headerEnd.upperBound..<text.index(before: text.endIndex)]
        var device = DeviceRecord()
        var current: WritableKeyPath<DeviceRecord, String?>?
        for part in body.split(separator: ", ", omittingEmptySubsequences: false) {
            if let colon = part.firstIndex(of: ":"), let field = field(part[..<colon]) {
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
