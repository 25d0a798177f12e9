import Foundation
import GRDB
import HealthModel

/// Merges the pending journals into the open store, oldest lock first and each in entry order,
/// exactly once even if healthd is killed at any point:
///
/// - entries are applied in batches of `batchSize`: a batch's effects and the advance of its
///   journal's `applied_through` past the batch commit in one transaction, so an entry is either
///   merged and recorded, or neither; a restarted merge skips what is recorded. One durable
///   commit per batch rather than per entry is what makes the merge fast (ARCHITECTURE.md);
/// - the file is read one record at a time (`PendingJournalReader`), and a batch holds at most
///   `maxBatchBytes` of plaintext: memory is one entry plus one batch, whatever the file's size;
/// - once every entry is merged the file is removed (durably), then its key row: a kill between
///   the two leaves a row without a file, which the next merge just removes. A file with
///   anything that could not be merged (an entry failing authentication, bytes that are not an
///   entry, an entry over the bound) is kept as `<journal>.damaged` instead, never deleted, and
///   the report names what and where (`PendingJournalError.unmerged`); a note beside it keeps
///   what was lost for `healthctl status` (`DamagedPendingJournals`).
///
/// Runs before the store admits any call (StoreHandle, at unlock and at start-up), so entries
/// resolve sync-identifier upserts against the store as it was when they were saved plus the
/// entries before them — as if they had been saved then.
public enum PendingJournalMerge {
    public struct Report: Sendable, Equatable {
        /// Entries merged now (not those a previous, interrupted merge already applied).
        public var merged = 0
        /// Journals with entries or bytes that could not be merged; each file is kept, never
        /// deleted (`PendingJournalError.unmerged`).
        public var damaged: [PendingJournalError] = []
        /// Apps whose background-delivery registrations merged entries changed.
        public var backgroundDeliveryApps: Set<String> = []
        /// Apps whose journaled deletions by predicate went past their merge budget, and why:
        /// those entries changed nothing (`MergeBudgets`).
        public var budgetStopped: [String: StatementBudget.Stop] = [:]
        /// Merged entries the store refused (they changed nothing), per app and reason.
        public var refused = MergeRefusals()

        public init() {}
    }

    /// `decode` turns an entry's plaintext into its effect; a throw counts the entry as damaged.
    /// `budgets`: what each app's journaled deletions by predicate may compute (`MergeBudgets`).
    public static func merge(_ database: HealthDatabase, directory: String, batchSize: Int = defaultBatchSize,
                             budgets: MergeBudgets = MergeBudgets(),
                             decode: ([UInt8]) throws -> PendingEffect) throws -> Report {
        precondition(batchSize > 0, "a merge batch holds at least one entry")
        var report = Report()
        let writer = database.writer
        // What a lock or a locked start journaled to the next journal merges now, under a new next.
        try LockedStartKeys.retireIfUsed(writer, directory: directory)
        for generation in try writer.read({ try PendingJournalKeys.generations($0) }) {
            let path = PendingJournalFile.path(directory: directory, generation: generation)
            guard let key = try writer.read({ try PendingJournalKeys.load($0, generation: generation) }) else { continue }
            var problems = ProblemList()
            if let reader = try PendingJournalReader(path: path, generation: generation) {
                var batch = Batch(limit: batchSize)
                while let item = try reader.next() {
                    switch item {
                    case let .entry(sequence, sealed):
                        guard sequence > key.appliedThrough else { continue }
                        let aad = PendingJournalFile.associatedData(generation: generation, sequence: sequence)
                        guard let plaintext = try PendingJournalSeal.open(sealed[...], privateKey: key.privateKey,
                                                                          publicKey: key.publicKey, aad: aad),
                              let effect = try? decode(plaintext) else {
                            problems.append(.entryDamaged(sequence: sequence))
                            continue  // each entry is sealed on its own: the ones after it still count
                        }
                        batch.add(sequence: sequence, effect: effect, bytes: plaintext.count)
                        if batch.isFull {
                            try apply(batch.entries, generation: generation, writer, budgets: budgets, into: &report)
                            batch = Batch(limit: batchSize)
                        }
                    case let .unreadable(offset, bytes):
                        problems.append(.bytesUnreadable(offset: offset, bytes: bytes))
                    case let .oversized(sequence, bytes):
                        problems.append(.entryTooLarge(sequence: sequence, bytes: bytes))
                    }
                }
                try apply(batch.entries, generation: generation, writer, budgets: budgets, into: &report)
            }
            if problems.total == 0 {
                do {
                    try StoreFileIO.remove(path)
                } catch {
                    throw PendingJournalError.fileUnusable(path: path, reason: error.reason)
                }
            } else {
                // Never deleted: what could not be merged stays beside the store, and the
                // unlock's answer and healthd's log say where.
                let kept = path + DamagedPendingJournals.suffix
                let more = problems.total - problems.first.count
                // The note first, so a kept file always has one; a note that cannot be written
                // (disk full) costs `healthctl status` its "lost" line, not the merge: the
                // unlock's answer and the log still say it.
                try? DamagedPendingJournals.writeNote(kept: kept, lost: PendingJournalProblem.summary(problems.first, more: more))
                do {
                    try StoreFileIO.rename(path, to: kept)
                } catch {
                    throw PendingJournalError.fileUnusable(path: path, reason: error.reason)
                }
                report.damaged.append(.unmerged(path: path, problems: problems.first, more: more, keptAs: kept))
            }
            try writer.write { try PendingJournalKeys.remove($0, generation: generation) }
        }
        report.budgetStopped = budgets.stopped
        return report
    }

    /// Merged entries waiting for their transaction: at most `limit` of them and
    /// `maxBatchBytes` of plaintext, so a journal of large entries does not gather gigabytes.
    private struct Batch {
        let limit: Int
        var entries: [(sequence: UInt64, effect: PendingEffect)] = []
        var bytes = 0
        var isFull: Bool { entries.count >= limit || bytes >= maxBatchBytes }

        mutating func add(sequence: UInt64, effect: PendingEffect, bytes: Int) {
            entries.append((sequence, effect))
            self.bytes += bytes
        }
    }

    /// The first problems of one journal, and how many there were.
    private struct ProblemList {
        var first: [PendingJournalProblem] = []
        var total = 0

        mutating func append(_ problem: PendingJournalProblem) {
            if first.count < PendingJournalProblem.reportedPerFile { first.append(problem) }
            total += 1
        }
    }

    /// Plaintext bytes per merge transaction at most (one entry may exceed it alone).
    static let maxBatchBytes = 16 << 20

    /// Opens the journal a lock writes to, with the store still open: the next journal
    /// (`LockedStartKeys`, made now if the store has none), created or continued.
    public static func begin(_ database: HealthDatabase, directory: String) throws -> PendingJournal {
        let next = try LockedStartKeys.next(database.writer)
        return try PendingJournal.openForAppending(directory: directory, generation: next.generation, publicKey: next.publicKey)
    }

    /// Entries per merge transaction. Large enough that the commit's fsync is paid rarely, small
    /// enough that a transaction stays a few megabytes (entries are bounded by the frame limit,
    /// but most are one save) and a kill mid-merge redoes little.
    public static let defaultBatchSize = 128

    /// Applies `batch` and records it merged, in one transaction.
    private static func apply(_ batch: [(sequence: UInt64, effect: PendingEffect)], generation: Int64,
                              _ writer: any DatabaseWriter, budgets: MergeBudgets, into report: inout Report) throws {
        guard let last = batch.last else { return }
        let (changed, refused) = try writer.write { db in
            var changed: Set<String> = []
            var refused = MergeRefusals()
            for entry in batch {
                if let appID = try entry.effect.apply(db, budgets: budgets, refusals: &refused) { changed.insert(appID) }
            }
            try PendingJournalKeys.recordApplied(db, generation: generation, through: last.sequence)
            // Apps' storage counts ride on the batch's commit when one moved far enough.
            try StorageUse.writing(db)?.persistDue(db)
            return (changed, refused)
        }
        // Counted once the batch committed: a batch that failed merged nothing.
        report.merged += batch.count
        report.backgroundDeliveryApps.formUnion(changed)
        report.refused.formUnion(refused)
    }
}
