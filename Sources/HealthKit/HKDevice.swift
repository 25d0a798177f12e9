/// The hardware that produced a sample, as HealthKit's `HKDevice`. Every property is optional.
public final class HKDevice: Hashable, Sendable {
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
    }

    init(record: DeviceRecord) {
        self.record = record
    }

    public static func == (lhs: HKDevice, rhs: HKDevice) -> Bool { lhs.record == rhs.record }
    public func hash(into hasher: inout Hasher) { hasher.combine(record) }
}
