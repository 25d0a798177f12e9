import Foundation
import Glibc
import HealthSandboxKit
import HealthWire
import Synchronization
import Testing
import TestSupport

/// Session 19 review, finding 8: the launch agent — the user's unconfined process — opened
/// `LOG-DIR/APP-ID.log` by name, following a link (an app that could write the folder made one to
/// `~/.bashrc`, and the agent appended the app's output to it; as root, to a root-owned 0600 file)
/// and waiting on a FIFO while it held the spawner's one lock (no app was launched again), and it
/// took whatever was at `DATA-ROOT/APP-ID` as the app's data folder. Each planted entry (made here
/// as such an app would) now fails the launch at once, naming the path and what was found, and
/// nothing is written through it. In-process spawner, no healthd: every refusal comes before
/// anything starts; the one accepted control starts `health-sandbox run`, which exits 69 at once
/// for want of a healthd. Each planted case failed before the fix (commit message).
@Suite(.timeLimit(.minutes(10)), .serialized) struct AgentPlantedEntryTests {
    static let appID = "org.test.planted"

    /// root/logs, root/data, root/victim (a file of the user's, 0600, "victim\n"), root/victim-folder.
    final class Folders {
        let root = NSTemporaryDirectory() + "ohk-planted-" + UUID().uuidString.prefix(8)
        var logs: String { root + "/logs" }
        var data: String { root + "/data" }
        var victim: String { root + "/victim" }
        var victimFolder: String { root + "/victim-folder" }
        var log: String { logs + "/\(AgentPlantedEntryTests.appID).log" }
        var dataFolder: String { data + "/\(AgentPlantedEntryTests.appID)" }

        init() throws {
            for folder in [logs, data, victimFolder] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            _ = FileManager.default.createFile(atPath: victim, contents: Data("victim\n".utf8), attributes: [.posixPermissions: 0o600])
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// Launches the app through a spawner logging to `logs` (and with `dataRoot`), on a thread
        /// of its own: the outcome, or nil when the launch has not returned within 20 s (before
        /// the fix, a FIFO held it there; `unblock` then opens the FIFO so the thread can end).
        func launch(dataRoot: String? = nil, onExit: @escaping @Sendable (LaunchOutcome) -> Void = { _ in }) -> LaunchOutcome? {
            let spawner = SandboxedAppSpawner(.init(launcher: Products.path("health-sandbox"), adminSocket: root + "/none.sock",
                                                    logDirectory: logs, extraReadable: [], extraWritable: [], minimumLandlockABI: 0,
                                                    dataRoot: dataRoot),
                                              report: { _ in }, onExit: onExit)
            let result = Mutex<LaunchOutcome?>(nil)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                let outcome = spawner.launch(LaunchRequest(requestID: 1, appID: AgentPlantedEntryTests.appID,
                                                           executable: "/usr/bin/true", typeIdentifiers: []))
                result.withLock { $0 = outcome }
                done.signal()
            }
            thread.start()
            guard done.wait(timeout: .now() + 20) == .success else { return nil }
            return result.withLock { $0 }
        }

        func unblock(_ fifo: String) {
            let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            if reader >= 0 { close(reader) }
        }

        var victimContents: String { (try? String(contentsOfFile: victim, encoding: .utf8)) ?? "unreadable" }
    }

    enum PlantedLog: String, CaseIterable, CustomStringConvertible {
        case link, danglingLink, fifo, hardLink, folder, othersFile
        var description: String { rawValue }
    }

    @Test(arguments: PlantedLog.allCases)
    func aPlantedLogEntryFailsTheLaunchAndNothingIsWrittenThroughIt(planted: PlantedLog) throws {
        let folders = try Folders()
        switch planted {
        case .link: #expect(symlink(folders.victim, folders.log) == 0)
        case .danglingLink: #expect(symlink(folders.root + "/created-through-the-link", folders.log) == 0)
        case .fifo: #expect(mkfifo(folders.log, 0o600) == 0)
        case .hardLink: #expect(link(folders.victim, folders.log) == 0)
        case .folder: #expect(mkdir(folders.log, 0o700) == 0)
        case .othersFile:
            // Only root can give a file away; as another user the case is the same as `link` for the test's purposes.
            guard getuid() == 0 else { return }
            _ = FileManager.default.createFile(atPath: folders.log, contents: Data(), attributes: [.posixPermissions: 0o666])
            #expect(chown(folders.log, 12345, 12345) == 0)
        }
        let outcome = folders.launch()
        if planted == .fifo, outcome == nil { folders.unblock(folders.log) }
        #expect(outcome != nil, "\(planted): the launch did not return within 20 s")
        #expect(outcome?.kind == .failed, "\(planted): \(String(describing: outcome))")
        #expect(outcome?.detail.contains(folders.log) == true, "\(planted): \(outcome?.detail ?? "")")
        #expect(folders.victimContents == "victim\n", "\(planted): written through to \(folders.victim)")
        #expect(access(folders.root + "/created-through-the-link", F_OK) != 0, "\(planted): a file was made through the link")
    }

    enum PlantedDataFolder: String, CaseIterable, CustomStringConvertible {
        case link, file, othersCanWrite, othersFolder
        var description: String { rawValue }
    }

    @Test(arguments: PlantedDataFolder.allCases)
    func aPlantedDataFolderFailsTheLaunch(planted: PlantedDataFolder) throws {
        let folders = try Folders()
        switch planted {
        case .link: #expect(symlink(folders.victimFolder, folders.dataFolder) == 0)
        case .file: _ = FileManager.default.createFile(atPath: folders.dataFolder, contents: Data())
        case .othersCanWrite:
            #expect(mkdir(folders.dataFolder, 0o700) == 0)
            #expect(chmod(folders.dataFolder, 0o777) == 0)
        case .othersFolder:
            guard getuid() == 0 else { return }
            #expect(mkdir(folders.dataFolder, 0o700) == 0)
            #expect(chown(folders.dataFolder, 12345, 12345) == 0)
        }
        let outcome = folders.launch(dataRoot: folders.data)
        #expect(outcome?.kind == .failed, "\(planted): \(String(describing: outcome))")
        #expect(outcome?.detail.contains(folders.dataFolder) == true, "\(planted): \(outcome?.detail ?? "")")
    }

    /// Control: with nothing planted the app is launched (its `health-sandbox run` then exits 69:
    /// no healthd), its log is a new 0600 file of this user holding run's words, and its data
    /// folder a new 0700 folder; a second launch appends to the same log.
    @Test func withNothingPlantedTheAppIsLaunchedAndItsLogAndFolderMade() throws {
        let folders = try Folders()
        for attempt in 1...2 {
            let exits = Mutex<[LaunchOutcome]>([])
            let outcome = folders.launch(dataRoot: folders.data, onExit: { outcome in exits.withLock { $0.append(outcome) } })
            #expect(outcome?.kind == .launched, "launch \(attempt): \(String(describing: outcome))")
            let deadline = Date().addingTimeInterval(60)
            while exits.withLock({ $0.isEmpty }), Date() < deadline { usleep(20_000) }
            #expect(exits.withLock { $0.first?.exitStatus } == 69, "launch \(attempt)")
        }
        var status = stat()
        #expect(lstat(folders.log, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && status.st_mode & 0o777 == 0o600)
        #expect(status.st_uid == geteuid())
        let log = (try? String(contentsOfFile: folders.log, encoding: .utf8)) ?? ""
        #expect(log.components(separatedBy: "cannot reach healthd").count == 3, "\(log)")
        #expect(lstat(folders.dataFolder, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR && status.st_mode & 0o777 == 0o700)
    }
}
