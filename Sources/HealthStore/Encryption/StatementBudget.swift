public import Synchronization

/// What one app call may make a store connection compute, and the way to stop it midway.
///
/// The broker sets one for every app call (`StatementBudget.$current`, carried onto the store
/// work threads like the unpack account). Every store connection has a progress handler
/// (`StatementWatch`) that, every few thousand SQLite VM steps of a statement run on behalf of
/// such a call, looks at it and aborts the statement (SQLITE_INTERRUPT) when:
/// - one run of one statement has used more than `cpuPerStatement` of its thread's CPU time (since
///   it began, or since the call last handed a message of its answer to the app) — an
///   app's predicate can make each row cost milliseconds (metadata JSON read per condition), and
///   SQLite stops no statement by itself, however long it runs: without this one query held the
///   broker's only query slot, and a lock's 30 s drain, for as long as the app wished;
/// - the call ended (its client left or cancelled it: `end()`): nobody is waiting for the rows;
/// - the store is draining for a lock or key change (`draining`), on reader connections only:
///   the drain then never waits for an app's statement. The writer's statements (saves, each
///   bounded by a frame) finish.
///
/// CPU time, not wall time: a statement waiting for its client to read, or for a core on a
/// loaded machine, uses none, so a legitimate answer is not cut because the machine is busy.
/// What stopped a statement is kept (`stop`), so the broker answers with what the app can act on.
///
/// The cost counted is the statement's own, whatever rows it walks; a reading app's scope never
/// makes it walk another app's hidden rows more than the call's duration already shows (the
/// budget adds no signal past that duration: SECURITY.md "Per-statement budget").
public final class StatementBudget: Sendable {
    /// Why a statement was stopped.
    public enum Stop: Sendable, Equatable {
        /// One statement run used more than this much CPU time.
        case overBudget(cpuPerStatement: Duration)
        /// The budget's statements together used more than this much CPU time.
        case overBudgetInAll(cpuInAll: Duration)
        /// The store began closing for a lock or key change.
        case storeDraining
        /// The call ended before its statement did.
        case callEnded
    }

    @TaskLocal public static var current: StatementBudget?

    /// CPU time one run of one statement may use.
    public let cpuPerStatement: Duration
    let cpuNanoseconds: Int64
    /// Set while the store drains; shared by every call's budget.
    let draining: StoreDraining?
    private let ended = Atomic<Bool>(false)
    private let stopped = Mutex<Stop?>(nil)
    /// Messages of the call's answer handed to the app so far (`answerHanded`).
    private let handed = Atomic<UInt64>(0)

    /// CPU time all statements of the budget may use together, nil for no such bound (the
    /// journal merge's per-app bound: many small entries must not add up to hours).
    public let cpuInAll: Duration?
    let cpuInAllNanoseconds: Int64
    private let charged = Atomic<Int64>(0)

    public init(cpuPerStatement: Duration, cpuInAll: Duration? = nil, draining: StoreDraining?) {
        self.cpuPerStatement = cpuPerStatement
        cpuNanoseconds = Self.nanoseconds(cpuPerStatement)
        self.cpuInAll = cpuInAll
        cpuInAllNanoseconds = cpuInAll.map(Self.nanoseconds) ?? .max
        self.draining = draining
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(1, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// CPU time charged to this budget's statements so far (tests, the merge's report).
    public var cpuCharged: Duration { .nanoseconds(charged.load(ordering: .relaxed)) }

    /// The call ended: its running statement stops at its next check, and every later one at once.
    public func end() { ended.store(true, ordering: .relaxed) }

    /// One message of the call's answer was handed to the app: a statement streaming the answer
    /// is charged from here anew, so a long answer that keeps handing rows is never cut; one that
    /// computes past the budget without handing any is.
    public func answerHanded() { handed.add(1, ordering: .relaxed) }

    var messagesHanded: UInt64 { handed.load(ordering: .relaxed) }

    /// What stopped a statement of this call, if anything did.
    public var stop: Stop? { stopped.withLock { $0 } }

    /// Called by the progress handler: why the running statement must stop now, or nil.
    /// `used` is the CPU time its longest-running busy statement has used, `interval` the CPU
    /// time charged since the last look; `onReader` whether the connection is a pool reader.
    func check(used: Int64, charged interval: Int64, onReader: Bool) -> Stop? {
        let total = charged.add(interval, ordering: .relaxed).newValue
        let stop: Stop? = if ended.load(ordering: .relaxed) {
            .callEnded
        } else if onReader, draining?.isDraining == true {
            .storeDraining
        } else if used > cpuNanoseconds {
            .overBudget(cpuPerStatement: cpuPerStatement)
        } else if total > cpuInAllNanoseconds, let cpuInAll {
            .overBudgetInAll(cpuInAll: cpuInAll)
        } else {
            nil
        }
        if let stop { stopped.withLock { $0 = $0 ?? stop } }
        return stop
    }
}

/// Whether the store is draining for a lock or a key change: set by the broker for the span of
/// the drain, read by every app statement's progress check (`StatementBudget`).
public final class StoreDraining: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public var isDraining: Bool { flag.load(ordering: .relaxed) }

    public func set(_ draining: Bool) { flag.store(draining, ordering: .relaxed) }
}

extension StatementBudget.Stop {
    /// What the app is told: what was bounded and what to do about it.
    public var message: String {
        switch self {
        case let .overBudget(limit):
            "a statement of this call computed for more than \(limit) of CPU time without handing any result "
                + "(each row cost too much, or too many rows matched nothing); narrow the predicate "
                + "(a date range, fewer metadata conditions) or split the call"
        case let .overBudgetInAll(limit):
            "this call's statements computed for more than \(limit) of CPU time in all; narrow the predicate or split the call"
        case .storeDraining:
            "the health store closed (locked, or its key changed) while this call read it; run it again once it is unlocked"
        case .callEnded:
            "the call ended before its statement did"
        }
    }
}
