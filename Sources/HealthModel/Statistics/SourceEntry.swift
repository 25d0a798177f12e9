/// One source of the user's data as the manager lists it (`healthctl sources list`): an app that
/// saved samples, or an installed app, with where it stands in a type's priority order.
public struct SourceEntry: Hashable, Sendable {
    public var appID: String
    public var name: String
    /// Whether an app with this id is installed (a source may outlive its app).
    public var installed: Bool
    public var sampleCount: Int
    /// Placed by the user's order for the type, rather than by the default order.
    public var orderedByUser: Bool

    public init(appID: String, name: String, installed: Bool, sampleCount: Int, orderedByUser: Bool) {
        self.appID = appID
        self.name = name
        self.installed = installed
        self.sampleCount = sampleCount
        self.orderedByUser = orderedByUser
    }
}
