/// HKDevice's properties as plain values; nil means "not set".
public struct DeviceRecord: Hashable, Sendable {
    public var name: String?
    public var manufacturer: String?
    public var model: String?
    public var hardwareVersion: String?
    public var firmwareVersion: String?
    public var softwareVersion: String?
    public var localIdentifier: String?
    public var udiDeviceIdentifier: String?

    public init(name: String? = nil, manufacturer: String? = nil, model: String? = nil,
                hardwareVersion: String? = nil, firmwareVersion: String? = nil, softwareVersion: String? = nil,
                localIdentifier: String? = nil, udiDeviceIdentifier: String? = nil) {
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.hardwareVersion = hardwareVersion
        self.firmwareVersion = firmwareVersion
        self.softwareVersion = softwareVersion
        self.localIdentifier = localIdentifier
        self.udiDeviceIdentifier = udiDeviceIdentifier
    }
}

/// HKSourceRevision as plain values. Only the broker fills it in, from the connection's identity.
public struct SourceRecord: Hashable, Sendable {
    public var bundleIdentifier: String
    public var name: String
    public var version: String?

    public init(bundleIdentifier: String, name: String, version: String? = nil) {
        self.bundleIdentifier = bundleIdentifier
        self.name = name
        self.version = version
    }
}
