import Foundation
import Glibc
import HealthModel
import Testing
import TestSupport

/// `healthd --start-locked` (ARCHITECTURE.md "Starting locked") against a real healthd on a
/// passcode store, real healthctl and separate sandboxed app processes (`health-sandbox run`):
/// started without the passcode, it answers authorization from the locked-start snapshot, refuses
/// reads, keeps saves sealed in the next pending journal, and merges them once at the unlock;
/// a kill while started locked loses nothing; grants changed while unlocked are in force; a
/// missing, stale, altered or wrong-key snapshot is refused naming the file.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LockedStartEndToEndTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let writer = "org.test.locked-start-writer"
    static let reader = "org.test.locked-start-reader"
    static let passcode = "start locked 1"
    static let snapshot = "locked-start.snapshot"

    /// A passcode store with `writer` (share steps) and `reader` (read steps, background delivery
    /// of steps) installed, and healthd stopped: what systemd finds at boot.
    private func passcodeStore() async throws -> RestartableHealthd {
        let healthd = try RestartableHealthd()
        try healthd.start()
        try await healthd.installClient(Self.writer, entitlements: [])
        try await healthd.installClient(Self.reader, entitlements: ["com.apple.developer.healthkit.background-delivery"])
        try await healthd.set(Self.writer, "share", Self.steps, allowed: true)
        try await healthd.set(Self.reader, "read", Self.steps, allowed: true)
        #expect(try await healthd.runApp(Self.reader, ["background-enable", Self.steps]).okValue == "enabled")
        try expectSuccess(await healthd.healthctl(["passcode", "set"], stdin: "\(Self.passcode)\n\(Self.passcode)\n"))
        healthd.stop()
        return healthd
    }


    private func expectSuccess(_ result: ProcessResult, _ comment: String = "") {
        #expect(result.status == 0, "\(comment) \(result)")
    }

    /// A sandboxed save of `value` steps at minute `minute`, carrying `marker` in its metadata.
    private func save(_ healthd: RestartableHealthd, minute: Int, marker: String) async throws -> ProcessResult {
        let start = 1_700_000_000 + minute * 60
        return try await healthd.runApp(Self.writer, ["save", Self.steps, "\(minute + 1)", "count", "\(start)", "\(start + 60)",
                                                      "--meta", "LockedStartMarker=string:\(marker)-\(minute)"])
    }

    /// The UUIDs of the step samples `reader` sees (sandboxed query), each as often as returned.
    private func storedSteps(_ healthd: RestartableHealthd) async throws -> [String] {
        let query = try await healthd.runApp(Self.reader, ["query", Self.steps])
        #expect(query.okValue != nil, "\(query)")
        return query.lines.filter { $0.hasPrefix("sample ") }.map { String($0.split(separator: " ")[1]) }
    }

    private func sharingStatus(_ healthd: RestartableHealthd, _ appID: String, _ type: String) async throws -> String? {
        try await healthd.runApp(appID, ["status", type]).okValue
    }

    private func unlock(_ healthd: RestartableHealthd) async throws -> ProcessResult {
        try await healthd.healthctl(["unlock"], stdin: "\(Self.passcode)\n")
    }

    @Test func startedLockedItAnswersAuthorizationRefusesReadsAndMergesSavesOnceAtUnlock() async throws {
        let healthd = try await passcodeStore()
        try healthd.start(["--start-locked"])
        let agent = try LaunchAgentProcess(root: healthd.root, adminSocket: healthd.adminSocket, backgroundTypes: [Self.steps])
        defer { agent.stop() }
        let status = try await healthd.healthctl(["status"])
        #expect(status.stdout.split(separator: "\n").contains { $0.contains("Locked:") && $0.contains(" yes") }, "\(status)")
        #expect(try await sharingStatus(healthd, Self.writer, Self.steps) == "\(HKAuthorizationStatus.sharingAuthorized.rawValue)")
        #expect(try await sharingStatus(healthd, Self.writer, Self.heartRate) == "\(HKAuthorizationStatus.notDetermined.rawValue)")
        let read = try await healthd.runApp(Self.reader, ["query", Self.steps])
        #expect(read.errorCode == HKError.Code.errorDatabaseInaccessible.rawValue, "\(read)")

        let marker = "LOCKEDSTARTPLAIN" + UUID().uuidString.prefix(8)
        let saved = try await save(healthd, minute: 1, marker: marker)
        let uuid = try #require(saved.okValue, "a save is acknowledged while started locked: \(saved)")
        // Sealed to the next journal: no file of the store folder (nor healthd's log) holds it.
        let files = healthd.storeFiles()
        #expect(files.contains { $0.hasSuffix(".journal") }, "\(files)")
        let holding = try healthd.storeFilesHolding(marker)
        #expect(holding.isEmpty, "\(holding) hold a locked save's plaintext")
        #expect(!healthd.log.contains(marker))
        try await Task.sleep(for: .seconds(2))
        #expect(agent.appLogLines(Self.reader).isEmpty, "launched while locked: \(agent.appLog(Self.reader) ?? "")")

        let unlocked = try await unlock(healthd)
        expectSuccess(unlocked)
        let merged = unlocked.stdout.firstMatch(of: /merged (\d+) changes/).flatMap { Int($0.1) }
        #expect(merged.map { $0 >= 2 } == true, "at least the save and its access-log entry: \(unlocked)")
        let stored = try await storedSteps(healthd)
        #expect(stored.filter { $0 == uuid }.count == 1, "the locked save is stored exactly once: \(stored)")
        // Background delivery, whose registrations a locked start could not read, fires for it.
        #expect(try await agent.waitForAppLine(Self.reader, "ok background"), "\(agent.log)\n\(healthd.log)")
        // The used journal merged and a fresh next one made: a later locked start has a snapshot.
        #expect(healthd.storeFiles().allSatisfy { !$0.hasSuffix(".journal") })
        healthd.stop()
        try healthd.start(["--start-locked"])
        #expect(try await save(healthd, minute: 2, marker: "again").okValue != nil)
        expectSuccess(try await unlock(healthd))
        #expect(try await storedSteps(healthd).count == 2)
    }

    @Test func killedWhileStartedLockedAndStartedLockedAgainNothingIsLost() async throws {
        let healthd = try await passcodeStore()
        try healthd.start(["--start-locked"])
        let first = try #require(try await save(healthd, minute: 1, marker: "first").okValue)
        healthd.kill()
        try healthd.start(["--start-locked"])
        let second = try #require(try await save(healthd, minute: 2, marker: "second").okValue)
        healthd.kill()
        try healthd.start(["--start-locked"])
        expectSuccess(try await unlock(healthd))
        let stored = try await storedSteps(healthd)
        #expect(stored.sorted() == [first, second].sorted(), "each save once: \(stored)")
        // And with the passcode after a kill while started locked: the start merges the journal.
        let third = try #require(try await save(healthd, minute: 3, marker: "third").okValue)
        healthd.kill()
        try healthd.start(["--start-locked"])
        let fourth = try #require(try await save(healthd, minute: 4, marker: "fourth").okValue)
        healthd.kill()
        try healthd.start(["--passcode-stdin"], standardInput: "\(Self.passcode)\n")
        #expect(try await storedSteps(healthd).sorted() == [first, second, third, fourth].sorted())
    }

    @Test func aGrantChangedWhileUnlockedIsInForceAfterALockedRestart() async throws {
        let healthd = try await passcodeStore()
        try healthd.start(["--passcode-stdin"], standardInput: "\(Self.passcode)\n")
        try await healthd.set(Self.writer, "share", Self.heartRate, allowed: true)
        healthd.kill()  // no orderly stop: the snapshot was written before the grant was acknowledged
        try healthd.start(["--start-locked"])
        #expect(try await sharingStatus(healthd, Self.writer, Self.heartRate) == "\(HKAuthorizationStatus.sharingAuthorized.rawValue)")
        let start = 1_700_000_000
        let saved = try await healthd.runApp(Self.writer, ["save", Self.heartRate, "61", "count/min", "\(start)", "\(start + 1)"])
        #expect(saved.okValue != nil, "\(saved)")
    }

    @Test func aRevocationMadeWhileUnlockedStillDeniesAfterALockedRestart() async throws {
        let healthd = try await passcodeStore()
        try healthd.start(["--passcode-stdin"], standardInput: "\(Self.passcode)\n")
        try await healthd.set(Self.writer, "share", Self.steps, allowed: false)
        healthd.kill()
        try healthd.start(["--start-locked"])
        #expect(try await sharingStatus(healthd, Self.writer, Self.steps) == "\(HKAuthorizationStatus.sharingDenied.rawValue)")
        let refused = try await save(healthd, minute: 1, marker: "refused")
        #expect(refused.errorCode == HKError.Code.errorAuthorizationDenied.rawValue, "\(refused)")
    }

    @Test func aGrantChangedWhileStartedLockedIsInForceAfterAKill() async throws {
        let healthd = try await passcodeStore()
        try healthd.start(["--start-locked"])
        try await healthd.set(Self.writer, "share", Self.steps, allowed: false)
        healthd.kill()
        try healthd.start(["--start-locked"])
        #expect(try await sharingStatus(healthd, Self.writer, Self.steps) == "\(HKAuthorizationStatus.sharingDenied.rawValue)")
        expectSuccess(try await unlock(healthd))
        #expect(try await sharingStatus(healthd, Self.writer, Self.steps) == "\(HKAuthorizationStatus.sharingDenied.rawValue)")
    }

    /// `healthctl lock` journals to the same next journal a locked start uses: after a kill, a
    /// locked start continues it, and serves the grants edited during the lock.
    @Test func killedWhileLockedByTheManagerALockedStartKeepsTheLocksSavesAndGrants() async throws {
        let healthd = try await passcodeStore()
        try healthd.start(["--passcode-stdin"], standardInput: "\(Self.passcode)\n")
        expectSuccess(try await healthd.healthctl(["lock"]))
        let first = try #require(try await save(healthd, minute: 1, marker: "during-lock").okValue)
        try await healthd.set(Self.writer, "share", Self.heartRate, allowed: true)
        healthd.kill()
        try healthd.start(["--start-locked"])
        #expect(try await sharingStatus(healthd, Self.writer, Self.heartRate) == "\(HKAuthorizationStatus.sharingAuthorized.rawValue)")
        let second = try #require(try await save(healthd, minute: 2, marker: "after-restart").okValue)
        expectSuccess(try await unlock(healthd))
        #expect(try await storedSteps(healthd).sorted() == [first, second].sorted())
        #expect(try await sharingStatus(healthd, Self.writer, Self.heartRate) == "\(HKAuthorizationStatus.sharingAuthorized.rawValue)")
    }

    @Test func aMissingStaleAlteredOrWrongKeySnapshotIsRefusedNamingTheFile() async throws {
        let healthd = try await passcodeStore()
        let path = healthd.storeDirectory + "/" + Self.snapshot
        let good = try Data(contentsOf: URL(fileURLWithPath: path))

        // Stale: a grant changed after this snapshot was taken (the old copy put back).
        try healthd.start(["--passcode-stdin"], standardInput: "\(Self.passcode)\n")
        try await healthd.set(Self.writer, "share", Self.steps, allowed: false)
        healthd.stop()
        let current = try Data(contentsOf: URL(fileURLWithPath: path))
        try good.write(to: URL(fileURLWithPath: path))
        try await expectRefused(healthd, saying: "older than the store's last change to apps or grants")

        try FileManager.default.removeItem(atPath: path)
        try await expectRefused(healthd, saying: "there is no locked-start snapshot")

        var altered = current
        altered[altered.count - 5] ^= 0x01
        try altered.write(to: URL(fileURLWithPath: path))
        try await expectRefused(healthd, saying: "failed authentication")

        // Sealed with another machine key: a new machine.key (it wraps nothing in a passcode store).
        try current.write(to: URL(fileURLWithPath: path))
        let machineKey = healthd.storeDirectory + "/machine.key"
        let originalKey = try Data(contentsOf: URL(fileURLWithPath: machineKey))
        var otherKey = Data("OHKMKEY1".utf8)
        otherKey.append(contentsOf: (0..<32).map { _ in UInt8.random(in: 0...255) })
        FileManager.default.createFile(atPath: machineKey, contents: otherKey, attributes: [.posixPermissions: 0o600])
        try await expectRefused(healthd, saying: "failed authentication")

        // The control: the same store and snapshot with the right key start locked.
        FileManager.default.createFile(atPath: machineKey, contents: originalKey, attributes: [.posixPermissions: 0o600])
        try healthd.start(["--start-locked"])
        #expect(try await sharingStatus(healthd, Self.writer, Self.steps) == "\(HKAuthorizationStatus.sharingDenied.rawValue)")
    }

    private func expectRefused(_ healthd: RestartableHealthd, saying reason: String,
                               sourceLocation: SourceLocation = #_sourceLocation) async throws {
        // Run to its exit: `start` would wait for sockets a refused healthd never makes.
        let result = try await healthd.startRefused(["--start-locked"])
        #expect(result.status != 0, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(Self.snapshot) && result.stderr.contains(reason)
                    && result.stderr.contains("start healthd once with the passcode"), "\(result)", sourceLocation: sourceLocation)
    }

}
