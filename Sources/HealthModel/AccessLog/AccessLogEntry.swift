public import Foundation

/// One line of the access log: who touched which types of health data, how, how many objects,
/// and when. It never holds a health value; `detail` is a short description written by the
/// broker (an app id, a request id, a status), not data.
public struct AccessLogEntry: Sendable, Equatable {
    public var sequence: Int64
    public var date: Date
    /// An app id, or a non-app actor's name (`NonAppActor`: the manager, healthd, unidentified),
    /// which no app id can be (`AppIDRule`).
    public var actor: String
    /// The app the entry is about: the actor itself, or the app whose grants the manager changed;
    /// nil when the manager browsed data (no app involved).
    public var appID: String?
    /// `AccessAction.rawValue` as stored; kept as text so an edited row still shows as it is.
    public var action: String
    public var types: [String]
    public var count: Int
    public var detail: String

    /// The actor name of the user's own manager tool.
    public static let managerActor = NonAppActor.manager.rawValue
    /// The actor of a refused connection from a process that is no installed app.
    public static let unidentifiedActor = NonAppActor.unidentified.rawValue
    /// The actor name of healthd itself, for what it does on its own (background launches).
    public static let brokerActor = NonAppActor.broker.rawValue

    public init(sequence: Int64, date: Date, actor: String, appID: String?, action: String,
                types: [String], count: Int, detail: String) {
        self.sequence = sequence
        self.date = date
        self.actor = actor
        self.appID = appID
        self.action = action
        self.types = types
        self.count = count
        self.detail = detail
    }
}

/// What kind of access an entry records.
public enum AccessAction: String, Sendable, CaseIterable {
    /// An app asked for authorization (types it asked for).
    case request
    /// The user decided grants: answered a prompt or edited them (types decided).
    case grantChange = "grant-change"
    /// Objects were read (the count returned).
    case read
    /// Objects were saved (the count saved).
    case write
    /// Objects were deleted (the count deleted).
    case delete
    /// An app's call (or an unidentified process's connection) was refused: no permission, an
    /// invalid argument, a method not served to apps. Count 0; the detail names the method and
    /// the HealthKit error code, never the request's values.
    case refused
    /// healthd asked the launch agent to start the app for background delivery (types: the
    /// registrations the launch is for; count 1).
    case launch
}
