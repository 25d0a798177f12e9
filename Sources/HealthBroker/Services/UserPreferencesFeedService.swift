import HealthIPC
import HealthModel
import HealthStore
import HealthWire

/// HKUserPreferencesDidChangeNotification: one stream per app process (the SDK opens it at its
/// first `preferredUnits(for:)`), counted as one of the app's long-running queries, until CANCEL
/// or the connection ends. It sends sequence 0 as soon as it is subscribed — so the SDK's first
/// `preferredUnits(for:)` returns only once no later change can be missed — and then one update
/// per change of the user's preferred units that the app may hear of.
///
/// Which changes wake an app: those of a type it has asked about, read or share, whatever the
/// answer (`AuthorizationEngine.checkAskedAbout`, decided when the change happens) — exactly the
/// types whose unit `preferredUnits(for:)` tells it. A change of any other type would tell it that
/// the user keeps that kind of data (a blood-glucose unit set to mmol/L, say) with nothing it may
/// read to show for it; and as granted and denied count alike, an update never tells the app its
/// read decision (DESIGN.md §7.2). Updates carry no type or unit (SECURITY.md).
enum UserPreferencesFeedService {
    static func watch(_ context: BrokerContext, _ caller: Caller, _ payload: [UInt8], _ responder: CallResponder) async throws {
        let app = try context.requireApp(caller)
        _ = try UserPreferencesFeedRequest(wire: payload)
        // Bounded: a burst of changes beyond this while the app reads nothing folds into the
        // newest ones, and any one of them makes the app re-read every unit.
        let (changes, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(32))
        let token = context.userPreferences.subscribe { continuation.yield($0) }
        defer { context.userPreferences.unsubscribe(token) }
        try await responder.send(UserPreferencesUpdate(sequence: 0).wireBytes())
        var sequence: UInt64 = 0
        for await type in changes {
            let askedAbout = (try? await context.store.withGrants { database in
                try database.authorization.checkAskedAbout(app: app, types: [type])
            }) != nil
            guard askedAbout else { continue }
            sequence += 1
            try await responder.send(UserPreferencesUpdate(sequence: sequence).wireBytes())
        }
        throw CancellationError()
    }
}
