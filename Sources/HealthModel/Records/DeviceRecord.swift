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

/// HKSourceRevision as plain values. Only the broker fills it in, from the connection's identity
/// and the host it runs on (`productType`, `operatingSystemVersion`: the same for every app).
public struct SourceRecord: Hashable, Sendable {
    public var bundleIdentifier: String
    public var name: String
    public var version: String?
    /// The hardware the object was saved on (Apple: "iPhone14,2"); nil when not recorded.
    public var productType: String?
    /// The system the object was saved on; `.unrecorded` (0.0.0) when not recorded.
    public var operatingSystemVersion: SystemVersion

    public init(bundleIdentifier: String, name: String, version: String? = nil, productType: String? = nil,
                operatingSystemVersion: SystemVersion = .unrecorded) {
        self.bundleIdentifier = bundleIdentifier
        self.name = name
        self.version = version
        self.productType = productType
        self.operatingSystemVersion = operatingSystemVersion
    }

    /// Whether the record names a product type or a system version (else nothing is stored).
    public var recordsSystem: Bool { productType != nil || operatingSystemVersion != .unrecorded }
}
