import HealthModel

extension AuthorizationEngine {
    /// The share check before an app's deletion of objects of `types` (`delete(_:)`,
    /// `deleteObjects(of:predicate:)`), from the grants alone — before anything is looked up, so
    /// its answer cannot depend on what the store holds.
    ///
    /// A plain type needs its own share grant, as for a save (`checkSave`). A correlation type
    /// takes no grant of its own: HealthKit authorizes correlations through the types they hold
    /// (HKCorrelationType; HKCorrelationQuery, "Requesting Permission to Share and Read"). Which
    /// of them one stored correlation holds is known only in the deletion's transaction, where
    /// `OwnCorrelationShares` requires each; here the app must share at least one of the types
    /// the correlation type may hold — an app sharing none of them can have no correlation of
    /// the type to delete, and is refused as for a plain type it never asked to share.
    func checkDelete(app: AppManifest, types: Set<String>) throws(HKError) {
        let correlations = types.filter { !CorrelationRules.memberTypes(of: $0).isEmpty }
        try checkSave(app: app, types: types.subtracting(correlations))
        for type in correlations.sorted() {
            var decisions: [AuthorizationDecision] = []
            do {
                decisions = try CorrelationRules.memberTypes(of: type).map { try decision(app: app, type: $0.identifier, access: .share) }
            } catch {
                throw HKError(.errorDatabaseInaccessible, "the health store could not be read")
            }
            if decisions.contains(.authorized) { continue }
            if decisions.contains(.denied) {
                throw HKError(.errorAuthorizationDenied, "authorization to share the types \(type) holds is denied")
            }
            throw HKError(.errorAuthorizationNotDetermined,
                          "authorization to share the types \(type) holds has not been requested; request them (a correlation type takes no grant of its own)")
        }
    }
}
