public import Foundation
import GRDB
public import HealthModel

/// An access-log entry whose count is not known yet: the broker fills in who, what and which
/// types before a write, and the store writes the entry inside the write's own savepoint once it
/// knows how many objects the write touched (`SampleRepository.insert`, `delete`,
/// `deleteMatching`). So the entry commits with the work it records, in the same transaction
/// and fsync, or not at all when the work rolls back.
public struct AccessLogEntryDraft: Sendable {
    public var actor: String
    public var appID: String?
    public var action: AccessAction
    public var types: [String]
    public var detail: String
    public var date: Date

    public init(actor: String, appID: String?, action: AccessAction, types: [String], detail: String = "", date: Date = Date()) {
        self.actor = actor
        self.appID = appID
        self.action = action
        self.types = types
        self.detail = detail
        self.date = date
    }
}
