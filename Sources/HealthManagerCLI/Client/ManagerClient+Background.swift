public import HealthModel
import HealthWire

/// Background delivery, as the user sees it.
extension ManagerClient {
    /// The background-delivery registrations of `appID`, or of every app when nil.
    public func backgroundDeliveries(appID: String?) async throws(HealthCtlError) -> [BackgroundDeliveryRegistration] {
        let list: BackgroundRegistrationList = try await unary(
            .listBackgroundDeliveries, BackgroundRegistrationQuery(appID: appID),
            action: appID.map { "list the background deliveries of \($0)" } ?? "list background deliveries")
        return list.registrations
    }
}
