import HealthWire

extension ManagerClient {
    /// Each app's storage use and bound (`healthctl apps storage`).
    func appStorage() async throws(HealthCtlError) -> AppStorageList {
        try await unary(.listAppStorage, EmptyMessage(), action: "list the apps' storage")
    }

    /// Sets `appID`'s storage bound (nil: the default); the listing as it now stands.
    func setStorageBound(appID: String, bytes: Int64?) async throws(HealthCtlError) -> AppStorageList {
        try await unary(.setAppStorageBound, AppStorageBoundSetting(appID: appID, boundBytes: bytes),
                        action: "set the storage bound of \(appID)")
    }
}
