import HealthModel
import HealthStore
import Logging

/// What every method handler may use. Built once at start-up; immutable. The store is reached
/// through `store` (its database changes across key changes); the authorization engine over it
/// is `HealthDatabase.authorization`.
struct BrokerContext: Sendable {
    let configuration: BrokerConfiguration
    let store: StoreHandle
    let prompts: PromptCenter
    /// Pending per-object read requests (vision prescriptions).
    let perObjectPrompts: PerObjectPromptCenter
    let connections: ConnectionRegistry
    let logger: Logger
    /// Wakes long-running queries after commits and grant changes.
    let changes: ChangeNotifier
    /// The running observer queries, for their acknowledgements.
    let observers: ObserverRegistry
    /// Background delivery: registrations, launch decisions, the launch agent.
    let backgroundDelivery: BackgroundDeliveryCoordinator
    /// Wakes an app's long-running queries when one of its temporary grants expires; told about
    /// every grant change (`reschedule()`).
    let grantExpiries: GrantExpiryScheduler
    /// Per-app counted budgets (calls in flight, long-running queries).
    let budgets: AppBudgets
    /// Slots for large queries, shared round-robin across apps.
    let largeQueries: QueryScheduler
    /// Rate limit on refusal entries in the access log.
    let refusals: RefusalLogThrottle
    /// Tells the apps' preference feeds of the user's unit changes (HKUserPreferencesDidChange).
    let userPreferences = UserPreferenceChanges()

    /// The app behind an app-socket call. The tables guarantee it; this keeps the type honest.
    func requireApp(_ caller: Caller) throws(HKError) -> AppManifest {
        guard let app = caller.appManifest else {
            throw HKError(.errorAuthorizationDenied, "this method is for apps")
        }
        return app
    }
}
