import Foundation
import HealthModel
import HealthStore
import Logging

/// The broker's way to the store. The store is not a fixed object for the broker's lifetime: a
/// key change (rotation, passcode set/change/remove) closes it, changes its key files and opens
/// it again. Handlers therefore never keep a `HealthDatabase`; they borrow the current one for
/// the span of their store work with `withDatabase`, which the key change waits for (StoreGate).
final class StoreHandle: Sendable {
    let directory: String
    /// The pool's reader count for every reopen (key change, unlock): `BrokerLimits.storeReaders`.
    let readers: Int
    let gate: StoreGate
    /// Told of every committed write, by each database the handle opens (after a key change too).
    let changes: ChangeNotifier
    /// Wrong-passcode back-off of `unlock` (StoreHandle+Lock).
    let unlockAttempts = UnlockBackoff()
    /// Ends long-running calls when the store locks (CallDispatcher).
    let lockSignal = LockSignal()
    /// Ends parked large queries when a lock or key change starts draining the store.
    let closing = StoreClosingSignal()
    /// The idle timeout (`BrokerConfiguration.lockAfter`), nil when off.
    let idleLock: IdleLock?

    /// How long a call waits for the store while a key change has it closed. A rotation
    /// re-encrypts every page, so this scales with the store; two minutes covers stores far
    /// larger than a person's health data.
    static let admissionWait: Duration = .seconds(120)
    /// How long a key change waits for the calls already using the store (a streamed query to a
    /// slow client is the long one; its sends time out after 10 s) before giving up unchanged.
    static let drainWait: Duration = .seconds(30)

    /// Why the store is read-only (healthd started while its file system was full), or nil.
    /// Shown by `healthctl status`; a refused write tells the app (`CallDispatcher`).
    let readOnlyReason: String?

    /// Takes over `encrypted`, which must stay open (and locked) as long as the handle serves it.
    init(directory: String, opened encrypted: EncryptedDatabase, notifying changes: ChangeNotifier,
         lockAfter: Duration? = nil, readers: Int = EncryptedDatabase.defaultMaximumReaderCount,
         statementCPUBudget: Duration = BrokerLimits().statementCPUBudget, storage: StorageBounds = StorageBounds(),
         checkWorkers: Int = BrokerLimits().checkWorkers) throws {
        self.directory = directory
        self.readers = readers
        self.statementCPUBudget = statementCPUBudget
        checkPool = CheckPool(workers: checkWorkers)
        idleLock = lockAfter.map(IdleLock.init(limit:))
        self.changes = changes
        self.storage = StorageUse(defaultBound: storage.storedBytesPerApp)
        journalBytesPerApp = storage.journaledBytesPerApp
        readOnlyReason = encrypted.readOnlyReason
        let database = try Self.database(encrypted, directory: directory, notifying: changes, storage: self.storage)
        // Saves a lock journaled before healthd was stopped or killed (StoreHandle+Lock).
        if encrypted.readOnlyReason == nil {
            startupMerge = try PendingJournalMerge.merge(database, directory: directory, budgets: Self.mergeBudgets(statementCPUBudget),
                                                         decode: PendingEntryCoding.decode)
        } else {
            startupMerge = PendingJournalMerge.Report()
        }
        gate = StoreGate(.init(encrypted: encrypted, database: database))
        startedLocked = false
        endWaitingChecksOnDrain()
    }

    /// Serves a store started locked (`healthd --start-locked`): the apps and grants restored from
    /// the locked-start snapshot and its next pending journal (`LockedStart`), until `unlock`
    /// opens the store and merges what was journaled. Nothing is merged before then.
    init(directory: String, startingLocked start: LockedStart, notifying changes: ChangeNotifier,
         lockAfter: Duration? = nil, readers: Int = EncryptedDatabase.defaultMaximumReaderCount,
         statementCPUBudget: Duration = BrokerLimits().statementCPUBudget, storage: StorageBounds = StorageBounds(),
         checkWorkers: Int = BrokerLimits().checkWorkers) {
        self.directory = directory
        self.readers = readers
        self.statementCPUBudget = statementCPUBudget
        checkPool = CheckPool(workers: checkWorkers)
        idleLock = lockAfter.map(IdleLock.init(limit:))
        self.changes = changes
        // Counted from the store once the first unlock opens it: until then no app's use is
        // known, and only the journal bound holds.
        self.storage = StorageUse(defaultBound: storage.storedBytesPerApp)
        journalBytesPerApp = storage.journaledBytesPerApp
        readOnlyReason = nil
        startupMerge = PendingJournalMerge.Report()
        gate = StoreGate(locked: .init(grants: start.grants, journal: start.journal, lockedStart: start))
        startedLocked = true
        lockSignal.set(locked: true)
        endWaitingChecksOnDrain()
    }

    /// `BrokerLimits.statementCPUBudget`: what an app's statement may compute, online and when
    /// the merge replays what the app journaled while locked (`mergeBudgets`).
    let statementCPUBudget: Duration

    /// What each app stores, and its bound (`StorageUse`): one count for the broker's life, seeded
    /// by every opening of the store (start, unlock, key change) and written before each close.
    let storage: StorageUse
    /// What one app may journal while the store is locked (`BrokerLimits.journaledBytesPerApp`).
    let journalBytesPerApp: Int

    /// What one journal merge lets each app's deletions by predicate compute: one statement as
    /// online, all of the app's together twice that (`MergeBudgets`).
    static func mergeBudgets(_ statementCPUBudget: Duration) -> MergeBudgets {
        MergeBudgets(cpuPerStatement: statementCPUBudget, cpuPerApp: statementCPUBudget * 2)
    }

    /// Whether healthd started locked: background delivery loads its registrations only once the
    /// first unlock opens the store (LockService).
    let startedLocked: Bool

    /// What merging the pending journals left by an earlier run did (healthd logs it).
    let startupMerge: PendingJournalMerge.Report

    /// The repositories over `encrypted`, with its commits announced to `changes` and, unless it
    /// is read-only, its apps and grants kept in `locked-start.snapshot` (written at once: every
    /// open of the store, at start, unlock or after a key change, leaves a fresh snapshot).
    static func database(_ encrypted: EncryptedDatabase, directory: String, notifying changes: ChangeNotifier,
                         storage: StorageUse) throws -> HealthDatabase {
        let database = try HealthDatabase(writer: encrypted.writer, sideReader: encrypted.sideReader,
                                          readOnly: encrypted.readOnlyReason != nil, storage: storage)
        database.changeFeed.onCommit { changes.post($0) }
        // Every opening (start, unlock, key change) goes through here: what an upgrade it ran
        // changed is logged once, when it ran (the notices stay in the store).
        for notice in database.upgradeNotices {
            Logger(label: "healthd").notice("store upgrade", metadata: ["change": "\(notice)"])
        }
        if encrypted.readOnlyReason == nil {
            database.keepLockedStartSnapshot(directory: directory, writeNow: true, onFailure: Self.snapshotFailed)
        }
        return database
    }

    /// A snapshot that could not be written: the change stands; a locked start refuses the stale
    /// snapshot (saying so) until a later write succeeds. healthd's log says why.
    static let snapshotFailed: @Sendable (LockedStartError) -> Void = { error in
        Logger(label: "healthd").error("the locked-start snapshot could not be written", metadata: ["error": "\(error)"])
    }

    /// Runs `body` with the open database. While a key change has the store closed this waits
    /// (at most `admissionWait`, then HKError errorDatabaseInaccessible). Keep only store work
    /// inside: a key change waits for `body` to return.
    ///
    /// The one choke point of the locked store: while it is locked this throws
    /// errorDatabaseInaccessible, whatever the caller wanted to read. Only the calls that must
    /// keep working while locked use `withGrants` (apps and grants) or `withSaveTarget` instead.
    func withDatabase<T: Sendable>(_ body: (HealthDatabase) async throws -> T) async throws -> T {
        try await withCurrentStore { access in
            guard case let .open(database) = access else { throw Self.lockedError }
            idleLock?.touch()
            return try await body(database)
        }
    }

    /// `withDatabase` for a long-running query's check whose work the request bounds, whatever the
    /// store holds — whether anything the app may see changed after its cursor — which takes no
    /// query slot (`ScheduledStoreVisits.outsideSlots` says why). A computation (a collection, the
    /// summaries, a delivery) goes through `withDatabase` and takes one.
    ///
    /// The one way a check reaches the store, so the rules of checks hold here (s20 availability
    /// review, finding 1, where one app's checks stalled all of healthd for 81 s):
    /// - `body` runs on the pool's worker thread (`CheckWorker`), never on Swift's cooperative
    ///   pool, whose two threads every other call needs;
    /// - all of its statements — one per descriptor of an anchored query, up to 64 — share one
    ///   CPU bound (`StatementBudget.forCheck`), past which the query ends RESOURCE_EXHAUSTED;
    ///   the walks of what others committed, hidden rows among it, are under no CPU bound
    ///   (`StatementBudget.overScope`), so only the app's predicate over rows it may see stops it;
    /// - it runs on one of a fixed number of workers (`CheckPool`, `BrokerLimits.checkWorkers`),
    ///   taken before the store's gate (so a waiting check holds no drain), round-robin by app, at
    ///   most one per app: an app's checks wait for each other, and another app's check waits for
    ///   at most one of them.
    func withDatabaseToCheck<T: Sendable>(_ body: @escaping @Sendable (HealthDatabase) throws -> T) async throws -> T {
        try await checkPool.run(app: ScheduledStoreVisits.current?.app) { worker in
            try await ScheduledStoreVisits.outsideSlots {
                try await withDatabase { database in
                    try await StatementBudget.$current.withValue(StatementBudget.current?.forCheck()) {
                        try await worker.run { try body(database) }
                    }
                }
            }
        }
    }

    /// The wake-up checks' workers, taken round-robin by app, one check per app at a time
    /// (`withDatabaseToCheck`).
    let checkPool: CheckPool

    /// A lock or key change that starts draining the store ends the checks waiting for a worker.
    private func endWaitingChecksOnDrain() {
        closing.onChange { [checkPool] in checkPool.storeClosing($0) }
    }

    /// `withDatabase` for a query that streams from inside its store read
    /// (`CallResponder.sendFromSynchronousContext`): `body` runs on a thread of its own, not the
    /// shared pool's (one thread per core), so a query blocked on a client that does not read
    /// takes no thread that cheap calls and other apps need. Threads stay bounded by the large
    /// query slots (`QueryScheduler`: running plus parked).
    func withDatabaseOffPool<T: Sendable>(_ body: @escaping @Sendable (HealthDatabase) throws -> T) async throws -> T {
        try await withDatabase { database in
            try await BlockingWork.run { try body(database) }
        }
    }

    /// `withDatabase` for a change the manager makes that is not kept while locked (installing or
    /// removing an app, ARCHITECTURE.md "Locked store"): while locked it fails with a message
    /// that names `change` and says to unlock first, rather than the readers' message.
    func withDatabase<T: Sendable>(changing change: String, _ body: (HealthDatabase) async throws -> T) async throws -> T {
        try await withCurrentStore { access in
            guard case let .open(database) = access else {
                throw HKError(.errorDatabaseInaccessible,
                              "the health store is locked, and \(change) needs it unlocked: run `healthctl unlock`, then try again")
            }
            idleLock?.touch()
            return try await body(database)
        }
    }

    /// Runs `body` with what holds the apps and grants: the open database, or, while locked, the
    /// in-memory copy taken at lock (grant changes also go to the pending journal: applyGrants). For identity,
    /// authorization status, requests and grant editing — never health data, which the copy
    /// does not hold.
    func withGrants<T: Sendable>(_ body: (HealthDatabase) async throws -> T) async throws -> T {
        try await withCurrentStore { access in
            switch access {
            case let .open(database): try await body(database)
            case let .locked(locked): try await body(locked.grants)
            }
        }
    }

    /// `withGrants` without waiting or suspending, for a call answered on the connection's
    /// reader thread (`CallDispatcher.answerNow`): runs `body` if the gate admits the call at
    /// once (store open or locked), and returns nil — running nothing — while a key change, lock
    /// or unlock has it closed; the caller then takes the ordinary path, which waits.
    func withGrantsNow<T>(_ body: (HealthDatabase) throws -> T) rethrows -> T? {
        guard let access = gate.enterNow() else { return nil }
        defer { gate.leave() }
        switch access {
        case let .open(database): return try body(database)
        case let .locked(locked): return try body(locked.grants)
        }
    }

    /// `withSaveTarget` without waiting, for a write committed on the connection's reader thread
    /// (`CallDispatcher.commitNow`): runs `body` with the open database if the gate admits the
    /// call at once, and returns nil — running nothing — while the store is locked (a locked
    /// store's write is journaled, on the ordinary path) or a key change has it closed.
    func withOpenStoreNow<T>(_ body: (HealthDatabase) throws -> T) rethrows -> T? {
        guard let access = gate.enterNow() else { return nil }
        defer { gate.leave() }
        guard case let .open(database) = access else { return nil }
        idleLock?.touch()  // a save to the open store is activity, as in `withSaveTarget`
        return try body(database)
    }

    /// `withGrants` for the broker's own threads (the accept threads), which may block.
    func withGrantsBlocking<T: Sendable>(_ body: @escaping @Sendable (HealthDatabase) throws -> T) throws -> T {
        try blocking { try await self.withGrants(body) }
    }

    /// Runs `body` with where a write goes now: the open database, or the locked store's
    /// pending journal (PendingSaveJournal).
    func withSaveTarget<T: Sendable>(_ body: (StoreGate.Access) async throws -> T) async throws -> T {
        try await withCurrentStore { access in
            if case .open = access { idleLock?.touch() }  // a save to the open store is activity
            return try await body(access)
        }
    }

    static let lockedError = HKError(.errorDatabaseInaccessible,
                                     "the health store is locked; its data can be read again once the user unlocks it (healthctl unlock)")

    /// What an answer in many messages ends with when the store closes under it: one whose next
    /// message comes after a lock or key change began closing the store (`StreamVisibility`), or
    /// one parked for its reader when the drain began (`QueryScheduler`). The status every call
    /// gets while the store is locked (UNAVAILABLE, errorDatabaseInaccessible), whatever was
    /// deleted meanwhile and by whom.
    static let closedUnderAnswer = HKError(.errorDatabaseInaccessible,
                                           "the health store closed (locked, or its key changed) while this answer was being sent; "
                                           + "run the query again (once the user unlocks the store, if it is locked)")

    /// Runs `body` with the store as it is (open or locked), counting as no activity for the
    /// idle lock: for `healthctl status` and the accessors above.
    ///
    /// The one way into the store, and so where a long-running query's visits are scheduled: in
    /// such a call each visit first takes a query slot of its app's (`ScheduledStoreVisits`), then
    /// enters the gate — the order a large query takes them in, so no call holds the gate (which
    /// a key change drains) while it waits for a slot.
    func withCurrentStore<T: Sendable>(_ body: (StoreGate.Access) async throws -> T) async throws -> T {
        try await ScheduledStoreVisits.run {
            let access = try await gate.enter(waitingAtMost: Self.admissionWait)
            defer { gate.leave() }
            return try await body(access)
        }
    }

    /// Runs `work` on a task and blocks this (non-pool) thread until it is done.
    func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = BlockingOutcome<T>()
        Task {
            do {
                outcome.finish(.success(try await work()))
            } catch {
                outcome.finish(.failure(error))
            }
        }
        return try outcome.wait()
    }

    /// One key change, alone (a second one meanwhile is refused): runs `check` on the store
    /// directory while the store stays open (a wrong passcode is refused without disturbing
    /// anyone), then closes the store, runs `change`, and reopens it: with `passcodeAfter` when
    /// `change` succeeded, with `passcodeBefore` when it failed (the key files are then as they
    /// were, or an interrupted rotation that the reopen settles). Calls arriving meanwhile wait;
    /// calls in flight finish first. If the store cannot be reopened, every later call fails
    /// with the reason until healthd is restarted.
    @discardableResult
    func changeKeys(passcodeAfter: Passcode?, passcodeBefore: Passcode?,
                    check: @escaping @Sendable (String) throws -> Void,
                    change: @escaping @Sendable (String) throws -> Void) async throws -> OfflineWindow {
        try await gate.claimKeyChange()
        do {
            let waited = try await changeKeysClaimed(passcodeAfter: passcodeAfter, passcodeBefore: passcodeBefore,
                                                     check: check, change: change)
            await gate.releaseKeyChange()
            return waited
        } catch {
            await gate.releaseKeyChange()
            throw error
        }
    }

    private func changeKeysClaimed(passcodeAfter: Passcode?, passcodeBefore: Passcode?,
                                   check: @escaping @Sendable (String) throws -> Void,
                                   change: @escaping @Sendable (String) throws -> Void) async throws -> OfflineWindow {
        let directory = directory
        let readers = readers
        let changes = changes
        let storage = storage
        try await BlockingWork.run { try check(directory) }
        let store = try await closing.whileClosing { try await gate.takeOffline(drainingAtMost: Self.drainWait) }
        let closedAt = ContinuousClock.now
        do {
            try await BlockingWork.run {
                try? store.database.persistStorageUse()  // as at a lock (StoreHandle+Lock)
                try store.encrypted.close()
            }
        } catch {
            await gate.reopen(store)
            throw error
        }
        var changeFailure: (any Error)?
        do {
            try await BlockingWork.run { try change(directory) }
        } catch {
            changeFailure = error
        }
        // A change that failed after its commit point (the rename of the re-encrypted copy)
        // left the store under the new protection: the reopen tries the other passcode then.
        let passcodes = changeFailure == nil ? [passcodeAfter] : [passcodeBefore, passcodeAfter]
        let waited: Int
        do {
            let reopened = try await BlockingWork.run {
                let encrypted = try Self.openEither(directory, passcodes: passcodes, maximumReaderCount: readers)
                return StoreGate.OpenStore(encrypted: encrypted,
                                           database: try Self.database(encrypted, directory: directory, notifying: changes,
                                                                       storage: storage))
            }
            waited = await gate.reopen(reopened)
        } catch {
            let reason = "the health store could not be reopened after a key change (\(error)); restart healthd"
            await gate.fail(reason)
            throw HKError(.errorDatabaseInaccessible, reason)
        }
        if let changeFailure { throw changeFailure }
        return OfflineWindow(duration: ContinuousClock.now - closedAt, callsThatWaited: waited)
    }

    /// Opens the store with the first of `passcodes` that opens it; the last one's error otherwise.
    private static func openEither(_ directory: String, passcodes: [Passcode?],
                                   maximumReaderCount: Int) throws -> EncryptedDatabase {
        var lastError: (any Error)?
        for passcode in passcodes {
            do {
                return try EncryptedDatabase.open(directory: directory, passcode: passcode, maximumReaderCount: maximumReaderCount)
            } catch {
                lastError = error
            }
        }
        throw lastError ?? StoreOpenError.passcodeRequired(path: directory)
    }

    /// How long a key change had the store closed, and how many calls waited for it.
    struct OfflineWindow: Sendable {
        let duration: Duration
        let callsThatWaited: Int
    }
}

/// A result handed from a task to a thread that blocks for it.
private final class BlockingOutcome<T: Sendable>: @unchecked Sendable {
    // @unchecked: `result` is written once before `done` is signalled and read after waiting.
    private var result: Result<T, any Error>?
    private let done = DispatchSemaphore(value: 0)

    func finish(_ result: Result<T, any Error>) {
        self.result = result
        done.signal()
    }

    func wait() throws -> T {
        done.wait()
        return try result!.get()
    }
}
