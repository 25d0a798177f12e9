public import Foundation

/// A locked store's pending journal that a merge could not take whole, kept beside the store as
/// `pending-N.journal.damaged` (HealthStore's `PendingJournalMerge`), as `healthctl status` shows
/// it. One type from the folder (HealthStore's `DamagedPendingJournals.list`) through the wire
/// (`BrokerStatus.damagedJournals`, StatusResponse field 98) to the command that prints it.
public struct DamagedPendingJournal: Sendable, Equatable {
    /// Journals listed at most, in the folder and on the wire (one per lock generation: more
    /// means something else is wrong).
    public static let maxListed = 64

    public var path: String
    public var bytes: Int
    /// When the merge kept it (its note's time; the file's own time if the note is missing);
    /// nil: unknown.
    public var kept: Date?
    /// What the merge could not take ("entry 3 failed authentication; …"); empty when its note
    /// is missing (a healthd older than the note, or a kill between the note and the rename).
    public var lost: String

    public init(path: String, bytes: Int, kept: Date?, lost: String) {
        self.path = path
        self.bytes = bytes
        self.kept = kept
        self.lost = lost
    }
}
