import Foundation
import HealthModel
import HealthStore

/// Locking and unlocking the store (DESIGN.md §7.8; ARCHITECTURE.md, "Locked store").
///
/// Lock: with the store drained (no call inside), copy the apps and grants to memory, create this
/// lock's pending journal (its key pair committed into the store, only the public half kept),
/// close the database — which releases the data key (the cipher's key registry cleanses it once
/// the last file closes) — and admit calls to the locked store.
///
/// Unlock: check the passcode (with back-off), drain the locked store's calls, reopen the
/// database, merge the pending journals (which hold the grants edited while locked too), then
/// admit calls again. Both run as a key change (one at a time, `claimKeyChange`).
extension StoreHandle {
    var isLocked: Bool {
        get async { await gate.isLocked }
    }

    func lock() async throws {
        try await claimingKeyChange { try await self.lockClaimed() }
    }

    /// Unlocks with `passcode` (nil where the machine key protects the store). Returns what the
    /// merge did. A wrong passcode is counted (`UnlockBackoff`) and leaves the store locked.
    /// `merging` runs once the store is reopened, just before the merge starts (healthd logs it:
    /// a long unlock is a long merge).
    func unlock(passcode: Passcode?, merging: @Sendable () -> Void = {}) async throws -> PendingJournalMerge.Report {
        try await claimingKeyChange { try await self.unlockClaimed(passcode: passcode, merging: merging) }
    }

    private func claimingKeyChange<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await gate.claimKeyChange()
        do {
            let result = try await body()
            await gate.releaseKeyChange()
            return result
        } catch {
            await gate.releaseKeyChange()
            throw error
        }
    }

    private func lockClaimed() async throws {
        let directory = directory
        let store = try await closing.whileClosing { try await gate.takeOffline(drainingAtMost: Self.drainWait) }
        let locked: StoreGate.LockedStore
        do {
            locked = try await BlockingWork.run {
                // The journal first: it makes the next journal if the store has none, which the
                // copy (and so the locked-start snapshot written from it) must name.
                let journal = try PendingJournalMerge.begin(store.database, directory: directory)
                let grants = try store.database.grantsCopy()
                // Grants changed while locked reach the snapshot too: after a kill, a locked
                // start serves them.
                grants.keepLockedStartSnapshot(directory: directory, writeNow: false, onFailure: Self.snapshotFailed)
                do {
                    // The apps' storage counts as they stand (the unlock seeds them again from the
                    // store). Not a reason to stay unlocked if it fails (a full disk): a count
                    // unwritten is off by less than `StorageUse`'s threshold, as after a crash.
                    try? store.database.persistStorageUse()
                    try store.encrypted.close()
                } catch {
                    journal.close()  // empty; the next merge removes it with its key row
                    throw error
                }
                return StoreGate.LockedStore(grants: grants, journal: journal, lockedStart: nil)
            }
        } catch {
            await gate.reopen(store)
            throw error
        }
        await gate.lockDown(locked)
        lockSignal.set(locked: true)
    }

    private func unlockClaimed(passcode: Passcode?, merging: @Sendable () -> Void) async throws -> PendingJournalMerge.Report {
        guard await gate.isLocked else { throw HKError(.errorInvalidArgument, "the health store is not locked") }
        try unlockAttempts.checkAllowed()
        let directory = directory
        do {
            try await BlockingWork.run { try StorePasscode.verify(directory: directory, passcode: passcode) }
        } catch let error as StoreOpenError {
            guard case .wrongPasscode = error else { throw error }
            let delay = unlockAttempts.recordFailure()
            let wait = delay > .zero ? "; the next attempt is accepted in \(Int((delay / .seconds(1)).rounded(.up))) s" : ""
            throw HKError(.errorAuthorizationDenied, "\(error.description)\(wait)")
        }
        unlockAttempts.recordSuccess()
        let locked = try await gate.takeLockedOffline(drainingAtMost: Self.drainWait)
        let changes = changes
        let readers = readers
        let storage = storage
        let reopened: StoreGate.OpenStore
        // A healthd started locked holds the store directory's lock without the store; the open
        // takes its own.
        locked.lockedStart?.releaseStore()
        do {
            reopened = try await BlockingWork.run {
                let encrypted = try EncryptedDatabase.open(directory: directory, passcode: passcode, maximumReaderCount: readers)
                return StoreGate.OpenStore(encrypted: encrypted,
                                           database: try Self.database(encrypted, directory: directory, notifying: changes,
                                                                       storage: storage))
            }
        } catch {
            await gate.lockDown(locked)
            throw error
        }
        locked.journal.close()
        merging()
        let report: PendingJournalMerge.Report
        do {
            let budgets = Self.mergeBudgets(statementCPUBudget)
            report = try await BlockingWork.run {
                return try PendingJournalMerge.merge(reopened.database, directory: directory, budgets: budgets,
                                                     decode: PendingEntryCoding.decode)
            }
        } catch {
            // The store is open and nothing merged is lost (each entry commits with its record);
            // what is left merges at the next unlock or start. Serve rather than stay locked.
            lockSignal.set(locked: false)
            await gate.reopen(reopened)
            throw error
        }
        lockSignal.set(locked: false)
        idleLock?.touch()
        await gate.reopen(reopened)
        return report
    }
}
