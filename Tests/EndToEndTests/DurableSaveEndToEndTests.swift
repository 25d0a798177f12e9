import Foundation
import Testing
import TestSupport

/// Issue 17's durable save through a real healthd: a save is answered only once its commit is
/// done, so a SIGKILL of healthd the instant a reply arrives loses nothing acknowledged — for a
/// lone writer (its save commits at once on the thread that handles it) and for concurrent
/// writers (saves that overlap a commit share the next one). Each save's access-log entry is in
/// the save's own transaction: after the restart there is exactly one entry per stored save, and
/// the chain verifies.
@Suite(.timeLimit(.minutes(10)), .serialized) struct DurableSaveEndToEndTests {
    static let appID = "org.test.durable-save"
    /// Replies before the kill: enough that the kill lands among saves in full flow.
    static let killAfterReplies = 150

    @Test(arguments: [1, 6]) func everyAcknowledgedSaveSurvivesAKillRightAfterItsReply(writers: Int) async throws {
        let healthd = try RestartableHealthd()
        try healthd.start()
        try await SavingApp.install(Self.appID, root: healthd.root) { try await healthd.healthctl($0) }
        let acknowledged = Replies()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    guard let app = try? SavingApp(socket: healthd.appSocket) else { return }
                    defer { app.close() }
                    for index in 0..<100_000 {
                        // Every save after the kill fails: the connection is gone.
                        guard let uuid = try? await app.save(writer * 1_000_000 + index) else { return }
                        if acknowledged.add(uuid) == Self.killAfterReplies {
                            // At once, from the task that got the reply: no orderly stop.
                            healthd.kill()
                            acknowledged.markKilled()
                        }
                    }
                }
            }
        }
        try #require(acknowledged.killed, "healthd was not killed: the saves failed before \(Self.killAfterReplies) replies")
        let kept = Set(acknowledged.uuids)

        try healthd.start()
        let reader = try SavingApp(socket: healthd.appSocket)
        defer { reader.close() }
        let stored = try await reader.storedUUIDs()
        #expect(kept.isSubset(of: stored), "\(kept.subtracting(stored).count) acknowledged saves lost")
        // At most the saves in flight at the kill (one per writer) were stored unanswered.
        #expect(stored.count <= kept.count + writers, "stored \(stored.count), acknowledged \(kept.count)")

        // One write entry per stored save: entries and saves commit together or not at all.
        let log = try await healthd.healthctl(["log", "--json", "--app", Self.appID, "--limit", "100000"])
        #expect(log.status == 0, "\(log)")
        let writes = log.stdout.split(separator: "\n").filter { $0.contains("\"action\":\"write\"") }
        #expect(writes.count == stored.count, "\(writes.count) write entries for \(stored.count) stored saves")
        let verified = try await healthd.healthctl(["log", "verify"])
        #expect(verified.status == 0 && verified.stdout.hasPrefix("intact"), "\(verified)")
    }
}

/// The UUIDs healthd answered saves with, from every writer task, and whether healthd was killed.
private final class Replies: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var all: [UUID] = []
    private var wasKilled = false

    /// Adds one reply; returns how many there are now.
    func add(_ uuid: UUID) -> Int { lock.withLock { all.append(uuid); return all.count } }
    func markKilled() { lock.withLock { wasKilled = true } }
    var uuids: [UUID] { lock.withLock { all } }
    var killed: Bool { lock.withLock { wasKilled } }
}
