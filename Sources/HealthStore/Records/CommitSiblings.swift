import Foundation

/// The blocking submitters a group commit expects back soon: connections' reader threads whose
/// save a commit answered less than `expectedFor` ago (`GroupCommitQueue.gather`).
///
/// Why: a reader thread answered by a commit is, when its app saves in a loop, about to submit
/// again — its reply is on the way and the app's next save follows it. A group that commits
/// before those siblings are back holds only the saves that queued during the previous commit,
/// and with several writers the groups split into two alternating halves (or worse, issue 17:
/// a mean of 4.2 saves a commit with 16 writers). Waiting for them, and only for them, forms full
/// groups without a timer on a lone writer: a writer is never its own missing sibling.
///
/// A thread stands for its connection: healthd gives each connection one reader thread, and a
/// blocking submitter has at most one save in the queue (it waits for its answer). Saves from
/// the cooperative pool (`GroupCommitQueue.submit`) have no submitter and are never waited for.
struct CommitSiblings {
    typealias Submitter = UInt

    /// How long after its answer a submitter is still expected. Also the bound on how long one
    /// group waits for a missing one: a writer that stopped costs at most one such wait.
    let expectedFor: Duration
    private var answered: [Submitter: ContinuousClock.Instant] = [:]

    init(expectedFor: Duration) {
        self.expectedFor = expectedFor
    }

    /// The calling thread as a submitter.
    static var current: Submitter { UInt(pthread_self()) }

    var isExpectingAny: Bool { !answered.isEmpty }

    mutating func noteAnswered(_ submitters: some Sequence<Submitter>, at now: ContinuousClock.Instant) {
        for submitter in submitters { answered[submitter] = now }
    }

    /// The siblings still expected but not `present`, and when the first of them stops being
    /// expected; nil when none is missing (the group may commit now). Forgets the submitters no
    /// longer expected.
    mutating func missing(present: Set<Submitter>, now: ContinuousClock.Instant)
        -> (submitters: Set<Submitter>, until: ContinuousClock.Instant)? {
        guard !answered.isEmpty else { return nil }
        var missing: Set<Submitter> = []
        var earliest = now + expectedFor
        var expired: [Submitter] = []
        for (submitter, time) in answered {
            let until = time + expectedFor
            if until <= now {
                expired.append(submitter)
            } else if !present.contains(submitter) {
                missing.insert(submitter)
                earliest = min(earliest, until)
            }
        }
        for submitter in expired { answered[submitter] = nil }
        return missing.isEmpty ? nil : (missing, earliest)
    }

    /// Stops expecting `submitters`: a group waited its full bound for them.
    mutating func forget(_ submitters: Set<Submitter>) {
        for submitter in submitters { answered[submitter] = nil }
    }
}
