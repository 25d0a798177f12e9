/// The checks on the device a sample (or a finished route) names, `HKDevice`: every text field at
/// most `SampleLimits.maximumDeviceStringBytes` UTF-8 bytes. HealthKit documents no limit; real
/// values are tens of bytes. Counted in bytes because a character may carry any number of
/// combining marks: before this check a device name of 4 MB was stored with every sample.
///
/// The one place the rule lives: `SampleValidator` (app saves, `healthctl import` and `healthctl
/// add`, correlated samples included) and the route builder's finish (`RouteService`) call it.
/// Messages name the field and the bound, never the text.
public enum DeviceValidator {
    public static func check(_ device: DeviceRecord?, of typeIdentifier: String) throws(HKError) {
        guard let device else { return }
        // Field by field rather than through an array of them: it runs for every imported
        // record (each names its device), where an array per record was an allocation each.
        try bound(device.name, "name", typeIdentifier)
        try bound(device.manufacturer, "manufacturer", typeIdentifier)
        try bound(device.model, "model", typeIdentifier)
        try bound(device.hardwareVersion, "hardwareVersion", typeIdentifier)
        try bound(device.firmwareVersion, "firmwareVersion", typeIdentifier)
        try bound(device.softwareVersion, "softwareVersion", typeIdentifier)
        try bound(device.localIdentifier, "localIdentifier", typeIdentifier)
        try bound(device.udiDeviceIdentifier, "udiDeviceIdentifier", typeIdentifier)
    }

    /// One text field, named by its `HKDevice` property in the message.
    private static func bound(_ text: String?, _ field: String, _ typeIdentifier: String) throws(HKError) {
        let limit = SampleLimits.maximumDeviceStringBytes
        guard let text, text.utf8.count > limit else { return }
        throw HKError(.errorInvalidArgument, "\(typeIdentifier): device \(field) is longer than \(limit) bytes (UTF-8)")
    }
}
