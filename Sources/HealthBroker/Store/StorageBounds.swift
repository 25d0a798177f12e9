import HealthStore

/// The two per-app storage bounds the store handle enforces (`BrokerLimits`): what an app may
/// store, and what it may journal while the store is locked.
struct StorageBounds: Sendable {
    var storedBytesPerApp: Int64 = StorageUse.defaultBytesPerApp
    var journaledBytesPerApp = 8 << 20
}
