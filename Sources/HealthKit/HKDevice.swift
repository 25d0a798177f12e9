public import Foundation

/// The hardware that produced a sample, as HealthKit's `HKDevice`. Every property is optional.
///
/// An `NSObject` with `NSSecureCoding`, as Apple's, so apps archive it with
/// `NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding: true)`. Two devices are
/// equal when every property is (`==`, `isEqual(_:)` and `Set` agree).
public final class HKDevice: NSObject, NSSecureCoding, @unchecked Sendable {
    // @unchecked: the only stored property is an immutable value type.
    /// The plain values the wire carries.
    let record: DeviceRecord

    public var name: String? { record.name }
    public var manufacturer: String? { record.manufacturer }
    public var model: String? { record.model }
    public var hardwareVersion: String? { record.hardwareVersion }
    public var firmwareVersion: String? { record.firmwareVersion }
    public var softwareVersion: String? { record.softwareVersion }
    public var localIdentifier: String? { record.localIdentifier }
    public var udiDeviceIdentifier: String? { record.udiDeviceIdentifier }

    public init(name: String?, manufacturer: String?, model: String?, hardwareVersion: String?,
                firmwareVersion: String?, softwareVersion: String?, localIdentifier: String?,
                udiDeviceIdentifier: String?) {
        record = DeviceRecord(name: name, manufacturer: manufacturer, model: model,
                              hardwareVersion: hardwareVersion, firmwareVersion: firmwareVersion,
                              softwareVersion: softwareVersion, localIdentifier: localIdentifier,
                              udiDeviceIdentifier: udiDeviceIdentifier)
        super.init()
    }

    init(record: DeviceRecord) {
        self.record = record
        super.init()
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    /// One archive key per property; a nil property is simply absent from the archive. Computed
    /// because key paths are not `Sendable`, so a stored static array of them is refused.
    private static var keys: [(key: String, path: WritableKeyPath<DeviceRecord, String?>)] { [
        ("name", \.name), ("manufacturer", \.manufacturer), ("model", \.model),
        ("hardwareVersion", \.hardwareVersion), ("firmwareVersion", \.firmwareVersion),
        ("softwareVersion", \.softwareVersion), ("localIdentifier", \.localIdentifier),
        ("udiDeviceIdentifier", \.udiDeviceIdentifier),
    ] }

    public func encode(with coder: NSCoder) {
        for (key, path) in Self.keys {
            if let value = record[keyPath: path] { coder.encode(NSString(string: value), forKey: key) }
        }
    }

    /// Every property is optional, so any archive of an `HKDevice` decodes; one whose keys hold
    /// something other than strings fails (nil), as secure decoding does.
    public required convenience init?(coder: NSCoder) {
        var record = DeviceRecord()
        for (key, path) in Self.keys {
            guard let value = coder.decodeOptionalString(forKey: key) else { return nil }
            record[keyPath: path] = value
        }
        self.init(record: record)
    }

    // MARK: Equality (NSObject's, so == and Set use it too)

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKDevice)?.record == record
    }

    public override var hash: Int { record.hashValue }

    public override var description: String {
        "HKDevice(name: \(name ?? "nil"), manufacturer: \(manufacturer ?? "nil"), model: \(model ?? "nil"))"
    }
}
