/// When a commit asks the background checkpointer for a pass, checkpoints on the writer, or
/// finishes what the last pass left (`WALCheckpointer`'s "Finishing" says why). Kept apart from
/// the thread and the hook so that the policy can be tested step by step (`CheckpointCycleTests`).
/// Not thread-safe: `WALCheckpointer` calls it under its lock.
struct CheckpointCycle {
    enum Step: Equatable {
        /// Nothing: the WAL is below the threshold, or a pass is under way (when it ends, the
        /// next commit finishes or asks again).
        case none
        /// Wake the background checkpointer.
        case request
        /// Checkpoint on the writer now: the WAL passed its bound (or no checkpointer runs).
        case inline
        /// Checkpoint on the writer now: the few frames the last complete pass left, so that the
        /// next transaction restarts the WAL.
        case finish
    }

    let policy: WALCheckpointing
    private(set) var passRunning = false
    /// The WAL's frames when the last pass that copied all of them began. Nil before one, after
    /// a finish used it, and once the WAL restarted (its frames count another generation).
    private var lastCompletePass: Int32?
    /// The WAL's frames after the previous commit: fewer after this one means it restarted.
    private var framesAfterLastCommit: Int32 = 0

    init(policy: WALCheckpointing) {
        self.policy = policy
    }

    /// A commit left the WAL with `frames` frames; `stopping`: the background checkpointer is gone.
    mutating func committed(frames: Int32, stopping: Bool) -> Step {
        if frames < framesAfterLastCommit { lastCompletePass = nil }  // the WAL restarted
        framesAfterLastCommit = frames
        if frames >= policy.inlineFrames || (stopping && frames >= policy.backgroundFrames) { return .inline }
        // A pass under way is followed by a finish or a request when it ends: asking again
        // meanwhile would start a pass for every commit of a busy writer.
        guard frames >= policy.backgroundFrames, !passRunning else { return .none }
        if let copied = lastCompletePass, frames - copied <= policy.finishingFrames {
            // Once per pass: should a reader's snapshot keep the WAL from restarting, the next
            // commits ask for a pass again rather than each finish on its own save.
            lastCompletePass = nil
            return .finish
        }
        return .request
    }

    mutating func passBegan() {
        passRunning = true
    }

    /// The pass ended: `copiedAll` is the WAL's frames when it began, when it copied them all;
    /// nil when a reader's snapshot stopped it short or it failed.
    mutating func passEnded(copiedAll frames: Int32?) {
        passRunning = false
        // Counted in the WAL as it was when the pass began: a restart since (fewer frames after
        // the last commit than the pass copied) makes the count another generation's.
        if let frames, frames <= framesAfterLastCommit {
            lastCompletePass = frames
        } else {
            lastCompletePass = nil
        }
    }
}
