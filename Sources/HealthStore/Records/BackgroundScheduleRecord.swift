public import Foundation

/// One registration's persisted schedule state (`background_schedule`): what
/// `BackgroundDeliveryRepository.saveSchedule` writes and `scheduleRecords` reads back after a
/// restart. Times are wall-clock dates: the broker's monotonic instants do not survive it.
public struct BackgroundScheduleRecord: Sendable, Equatable {
    public var appID: String
    public var typeIdentifier: String
    /// The change number the registration's changes were checked through.
    public var checkedThrough: Int64
    /// Not nil: a launch is owed for visible changes after this change number.
    public var owedAfter: Int64?
    public var lastLaunch: Date?
    /// Launches in a row that went unanswered.
    public var unanswered: Int
    public var retryNotBefore: Date?
    public var suspended: Bool

    public init(appID: String, typeIdentifier: String, checkedThrough: Int64, owedAfter: Int64?, lastLaunch: Date?,
                unanswered: Int, retryNotBefore: Date?, suspended: Bool) {
        self.appID = appID
        self.typeIdentifier = typeIdentifier
        self.checkedThrough = checkedThrough
        self.owedAfter = owedAfter
        self.lastLaunch = lastLaunch
        self.unanswered = unanswered
        self.retryNotBefore = retryNotBefore
        self.suspended = suspended
    }
}
