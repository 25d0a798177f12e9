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
        let limit = SampleLimits.maximumDeviceStringBytes
        for (field, text) in device.textFields {
            guard let text, text.utf8.count > limit else { continue }
            throw HKError(.errorInvalidArgument, "\(typeIdentifier): device \(field) is longer than \(limit) bytes (UTF-8)")
        }
    }
}

extension DeviceRecord {
    /// Every text field with its `HKDevice` property name, for checks and messages.
    var textFields: [(String, String?)] {
        [("name", name), ("manufacturer", manufacturer), ("model", model), ("hardwareVersion", hardwareVersion),
         ("firmwareVersion", firmwareVersion), ("softwareVersion", softwareVersion), ("localIdentifier", localIdentifier),
         ("udiDeviceIdentifier", udiDeviceIdentifier)]
    }
}
