import HealthModel

extension AuthorizationEngine {
    /// `preferredUnits(for:)` answers only for types the app has asked about, as HealthKit
    /// fails it with errorAuthorizationNotDetermined for a type requested neither for reading
    /// nor for sharing. Any decision counts — read denied and read granted alike — so the
    /// answer tells the app no more than `getRequestStatusForAuthorization` already does
    /// (whether it asked), never the read decision (DESIGN.md §7.2).
    func checkAskedAbout(app: AppManifest, types: [String]) throws(HKError) {
        for type in types {
            let decisions: [AuthorizationDecision]
            do {
                decisions = try [AccessKind.read, .share].map { try grants.decision(appID: app.id, type: type, access: $0) }
            } catch {
                throw HKError(.errorDatabaseInaccessible, "the health store could not be read")
            }
            guard decisions.contains(where: { $0 != .notDetermined }) else {
                throw HKError(.errorAuthorizationNotDetermined,
                              "authorization for \(type) has not been requested; request it (read or share) before asking for its preferred unit")
            }
        }
    }
}
