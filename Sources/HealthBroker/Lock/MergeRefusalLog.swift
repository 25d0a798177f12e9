import HealthStore
import HealthWire
import Logging

/// What a merge's refused entries (`MergeRefusals`) become outside the store: one warning per
/// app and reason in healthd's log, for the merge at unlock and the one at start-up alike, and the
/// unlock's answer to the admin socket (`healthctl unlock` shows it). Never an app's: the app
/// was answered while locked, and what another app's entries met is none of its business.
enum MergeRefusalLog {
    static func write(_ refusals: MergeRefusals, _ logger: Logger) {
        for entry in refusals.entries {
            logger.warning("journaled calls refused at the merge changed nothing", metadata: [
                "app": "\(entry.appID)", "count": "\(entry.count)", "reason": "\(entry.reason)"])
        }
        if refusals.more > 0 {
            logger.warning("journaled calls refused at the merge changed nothing", metadata: [
                "count": "\(refusals.more)", "reason": "more apps or reasons than are listed"])
        }
    }

    /// The refusals as the unlock's answer carries them.
    static func wire(_ refusals: MergeRefusals) -> (refused: [UnlockReport.Refusal], more: Int) {
        let listed = refusals.entries.prefix(UnlockReport.maxRefusalsListed)
        let unlisted = refusals.entries.dropFirst(UnlockReport.maxRefusalsListed).reduce(0) { $0 + $1.count }
        return (listed.map { UnlockReport.Refusal(appID: $0.appID, reason: $0.reason, count: $0.count) }, refusals.more + unlisted)
    }
}
