/// HKDevice's eight properties, named by HealthKit's `HKDevicePropertyKey…` strings, for
/// `predicateForObjects(withDeviceProperty:allowedValues:)`.
public enum DeviceProperty: String, Hashable, Sendable, CaseIterable {
    case name = "HKDevicePropertyName"
    case manufacturer = "HKDevicePropertyManufacturer"
    case model = "HKDevicePropertyModel"
    case hardwareVersion = "HKDevicePropertyHardwareVersion"
    case firmwareVersion = "HKDevicePropertyFirmwareVersion"
    case softwareVersion = "HKDevicePropertySoftwareVersion"
    case localIdentifier = "HKDevicePropertyLocalIdentifier"
    case udiDeviceIdentifier = "HKDevicePropertyUDIDeviceIdentifier"

    /// The property's value on `device`; nil when unset.
    public func value(of device: DeviceRecord) -> String? {
        switch self {
        case .name: device.name
        case .manufacturer: device.manufacturer
        case .model: device.model
        case .hardwareVersion: device.hardwareVersion
        case .firmwareVersion: device.firmwareVersion
        case .softwareVersion: device.softwareVersion
        case .localIdentifier: device.localIdentifier
        case .udiDeviceIdentifier: device.udiDeviceIdentifier
        }
    }
}

public let HKDevicePropertyKeyName = DeviceProperty.name.rawValue
public let HKDevicePropertyKeyManufacturer = DeviceProperty.manufacturer.rawValue
public let HKDevicePropertyKeyModel = DeviceProperty.model.rawValue
public let HKDevicePropertyKeyHardwareVersion = DeviceProperty.hardwareVersion.rawValue
public let HKDevicePropertyKeyFirmwareVersion = DeviceProperty.firmwareVersion.rawValue
public let HKDevicePropertyKeySoftwareVersion = DeviceProperty.softwareVersion.rawValue
public let HKDevicePropertyKeyLocalIdentifier = DeviceProperty.localIdentifier.rawValue
public let HKDevicePropertyKeyUDIDeviceIdentifier = DeviceProperty.udiDeviceIdentifier.rawValue
