/// Calls of one app, journaled while the store was locked, that the store refused at the
/// unlock's merge for one reason (`HKError.message`): they changed nothing, though the app was
/// told they saved. Counted by the merge (HealthStore's `MergeRefusals`) and carried to
/// `healthctl unlock` (HealthWire's `UnlockReport`) as this one type.
public struct MergeRefusal: Sendable, Equatable {
    public var appID: String
    public var reason: String
    public var count: Int

    public init(appID: String, reason: String, count: Int) {
        self.appID = appID
        self.reason = reason
        self.count = count
    }
}
