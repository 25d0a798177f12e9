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
/// A budget is charged only what its own call's statement runs computed (`StatementWatch` names a
/// run exactly and budgets by `serial`, never by address), so whether a call is stopped never
/// depends on another call's statements, nor on other work its thread did between its statements.
///
/// What a call's read scope makes the store walk before the app's predicate (a wake-up check's
/// walk of the rows its scope admits that changed since, `SampleSQL.laterChanges`) runs under
/// `overScope`: a budget that stops only for the call's end or a drain, never for CPU, so
/// whether a check is stopped depends on its predicate alone. The app's own predicate is then
/// evaluated over the rows its scope admitted, under the CPU bound (SECURITY.md "Per-statement
/// budget").
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
    /// journal merge's per-app bound: many small entries must not add up to hours; one wake-up
    /// check's, over all its descriptors: `forCheck`).
    public let cpuInAll: Duration?
    let cpuInAllNanoseconds: Int64
    private let charged = Atomic<Int64>(0)

    /// The call's budget this one was made from (`overScope`, `forCheck`): its end stops this
    /// budget's statements too, and this budget's stop is the call's (the broker answers from it).
    private let call: StatementBudget?

    /// Tells budgets apart for the progress handler. Never an address: a budget freed at the end
    /// of one call and one made for the next may share it (privacy review, session 20, finding 1).
    let serial: UInt64
    private static let serials = Atomic<UInt64>(0)

    public convenience init(cpuPerStatement: Duration, cpuInAll: Duration? = nil, draining: StoreDraining?) {
        self.init(cpuNanoseconds: Self.nanoseconds(cpuPerStatement), cpuPerStatement: cpuPerStatement, cpuInAll: cpuInAll,
                  draining: draining, call: nil)
    }

    private init(cpuNanoseconds: Int64, cpuPerStatement: Duration, cpuInAll: Duration?, draining: StoreDraining?,
                 call: StatementBudget?) {
        self.cpuPerStatement = cpuPerStatement
        self.cpuNanoseconds = cpuNanoseconds
        self.cpuInAll = cpuInAll
        cpuInAllNanoseconds = cpuInAll.map(Self.nanoseconds) ?? .max
        self.draining = draining
        self.call = call
        serial = Self.serials.add(1, ordering: .relaxed).newValue
    }

    /// The budget of one wake-up check of a long-running query (`StoreHandle.withDatabaseToCheck`):
    /// every statement of the check — one per descriptor of an anchored query, up to 64 — counts
    /// against one `cpuPerStatement` in all, so a check costs at most one budget however many
    /// descriptors it has (s20 availability review, finding 1: each had a budget of its own).
    public func forCheck() -> StatementBudget {
        StatementBudget(cpuNanoseconds: cpuNanoseconds, cpuPerStatement: cpuPerStatement, cpuInAll: cpuPerStatement,
                        draining: draining, call: self)
    }

    /// Runs `work` with no CPU bound but the current call's end and drain: for the statements
    /// that walk what a reader's scope makes the store walk — rows the app may not see among
    /// them — and evaluate nothing of the app's request. Their cost follows what others committed,
    /// so a CPU stop there would depend on hidden rows (privacy review, session 20, finding 2).
    /// The CPU they use is charged to no budget. Without a current budget `work` runs as it is.
    public static func overScope<T>(_ work: () throws -> T) rethrows -> T {
        guard let current else { return try work() }
        let scope = StatementBudget(cpuNanoseconds: .max, cpuPerStatement: current.cpuPerStatement, cpuInAll: nil,
                                    draining: current.draining, call: current)
        return try $current.withValue(scope) { try work() }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(1, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// CPU time charged to this budget's statements so far (tests, the merge's report).
    public var cpuCharged: Duration { .nanoseconds(charged.load(ordering: .relaxed)) }

    /// The call ended: its running statement stops at its next check, and every later one at once.
    public func end() { ended.store(true, ordering: .relaxed) }

    private var hasEnded: Bool { ended.load(ordering: .relaxed) || call?.hasEnded == true }

    /// One message of the call's answer was handed to the app: a statement streaming the answer
    /// is charged from here anew, so a long answer that keeps handing rows is never cut; one that
    /// computes past the budget without handing any is.
    public func answerHanded() { handed.add(1, ordering: .relaxed) }

    var messagesHanded: UInt64 { handed.load(ordering: .relaxed) }

    /// What stopped a statement of this call, if anything did.
    public var stop: Stop? { stopped.withLock { $0 } }

    private func record(_ stop: Stop) {
        stopped.withLock { $0 = $0 ?? stop }
        call?.record(stop)
    }

    /// Called by the progress handler: why the running statement must stop now, or nil.
    /// `used` is the CPU time its longest-running busy statement run of this budget has used,
    /// `interval` the CPU time charged since the last look; `onReader` whether the connection is
    /// a pool reader.
    func check(used: Int64, charged interval: Int64, onReader: Bool) -> Stop? {
        let total = charged.add(interval, ordering: .relaxed).newValue
        let stop: Stop? = if hasEnded {
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
        if let stop { record(stop) }
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
