import Foundation
import Glibc
import HealthModel
import Testing
import TestSupport

/// An app launched by root runs as its own unprivileged uid outside its user namespace too
/// (issue 12, "an app launched by root runs as an unprivileged uid"): healthd assigns each app
/// a number of `AppSandboxIDRange`, `health-sandbox run` switches to it before bubblewrap and
/// gives the app's data folder to it. Seen from here, outside, in /proc/PID/status.
@Suite(.timeLimit(.minutes(10)), .serialized) struct AppUIDTests {
    @Test(.enabled(if: getuid() == 0, "launching as root needs root; CI runs as root"))
    func anAppLaunchedByRootRunsAsItsOwnUIDOutsideItsNamespace() async throws {
        let world = try await EscapeWorld(user: .root)
        defer { world.stop() }
        let first = try await world.install("org.test.uid-first", product: "escape-probe")
        let second = try await world.install("org.test.uid-second", product: "escape-probe")
        // A root-owned folder the app is given writable by bind: as root it could write there.
        let rootOwned = world.root + "/root-owned"
        try FileManager.default.createDirectory(atPath: rootOwned, withIntermediateDirectories: false)
        chmod(rootOwned, 0o755)
        // Planted links in the data folder: the hand-over must change the links, not their targets.
        let secret = rootOwned + "/secret"
        try Data("root's".utf8).write(to: URL(fileURLWithPath: secret))
        symlink(secret, first.data + "/link-to-secret")
        symlink(rootOwned, first.data + "/link-to-folder")

        let firstRun = try await Self.launchAndHold(world, "org.test.uid-first", first, rootOwned: rootOwned)
        let secondRun = try await Self.launchAndHold(world, "org.test.uid-second", second, rootOwned: rootOwned)
        let againRun = try await Self.launchAndHold(world, "org.test.uid-first", first, rootOwned: rootOwned)

        for run in [firstRun, secondRun, againRun] {
            // Real, effective, saved and filesystem uid, as the kernel reports them from outside.
            #expect(run.outsideUIDs.count == 4 && Set(run.outsideUIDs).count == 1, "\(run)")
            let uid = run.outsideUIDs.first ?? 0
            #expect(AppSandboxIDRange.contains(uid), "outside uid \(uid) is not an app uid: \(run)")
            #expect(run.outsideGroups == [], "supplementary groups left: \(run)")
            #expect(run.output.contains("write_data: allowed"), "\(run)")
            #expect(run.output.contains("write_root_owned: denied (EACCES)"), "\(run)")
            #expect(run.output.contains("uid: 65534"), "inside its namespace the app still sees the overflow uid: \(run)")
        }
        #expect(firstRun.outsideUIDs.first != secondRun.outsideUIDs.first, "two apps share a uid")
        #expect(firstRun.outsideUIDs == againRun.outsideUIDs, "an app's uid changed between launches")

        var status = stat()
        #expect(stat(first.data + "/written-by-app", &status) == 0 && status.st_uid == firstRun.outsideUIDs.first,
                "the app's file is not owned by its uid")
        #expect(stat(first.data, &status) == 0 && status.st_uid == firstRun.outsideUIDs.first, "the data folder was not handed over")
        #expect(stat(secret, &status) == 0 && status.st_uid == 0, "a planted link handed root's file to the app")
        #expect(stat(rootOwned, &status) == 0 && status.st_uid == 0, "a planted link handed root's folder to the app")
        #expect(!FileManager.default.fileExists(atPath: rootOwned + "/written-by-app"))
    }

    @Test(.enabled(if: getuid() == 0, "launching as root needs root; CI runs as root"))
    func aDataFolderThatIsALinkOrHoldsAHardLinkIsRefused() async throws {
        let world = try await EscapeWorld(user: .root)
        defer { world.stop() }
        let app = try await world.install("org.test.uid-refused", product: "escape-probe")
        let rootFile = world.root + "/root-file"
        try Data("root's".utf8).write(to: URL(fileURLWithPath: rootFile))
        // The data folder given as a link to a root-owned folder (not healthd's socket folder,
        // which health-sandbox refuses to show an app before it looks at links).
        let linkedData = world.root + "/data-link"
        try FileManager.default.createDirectory(atPath: world.root + "/root-folder", withIntermediateDirectories: false)
        symlink(world.root + "/root-folder", linkedData)
        let viaLink = try await world.user.run(Products.path("health-sandbox"),
                                               ["run", "org.test.uid-refused", "--socket", world.adminSocket, "--data", linkedData,
                                                "--", app.executable, "hold", linkedData, linkedData])
        #expect(viaLink.status == 71 && viaLink.stderr.contains("a link is refused"), "\(viaLink)")
        // A hard link to root's file planted in the data folder.
        link(rootFile, app.data + "/hard-link")
        let hardLinked = try await world.user.run(Products.path("health-sandbox"),
                                                  ["run", "org.test.uid-refused", "--socket", world.adminSocket, "--data", app.data,
                                                   "--", app.executable, "hold", app.data, app.data])
        #expect(hardLinked.status == 71 && hardLinked.stderr.contains("hard links"), "\(hardLinked)")
        var status = stat()
        #expect(stat(rootFile, &status) == 0 && status.st_uid == 0)
        #expect(stat(world.root + "/run", &status) == 0 && status.st_uid == 0)
    }

    struct HeldRun: CustomStringConvertible {
        var outsideUIDs: [UInt32]
        var outsideGroups: [String]
        var output: String
        var description: String { "uids \(outsideUIDs), groups \(outsideGroups), output:\n\(output)" }
    }

    /// Launches `escape-probe hold` as `appID` under the real launcher, finds the app's process
    /// from outside (by its executable) once it says it is holding, reads its ids, lets it end.
    static func launchAndHold(_ world: EscapeWorld, _ appID: String, _ app: (executable: String, data: String),
                              rootOwned: String) async throws -> HeldRun {
        let outputPath = world.root + "/hold-\(UUID().uuidString.prefix(8)).out"
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        defer { close(output) }
        var input: [Int32] = [0, 0]
        guard pipe(&input) == 0 else { throw POSIXError(.EMFILE) }
        // Only the child's copy (its stdin, made by dup2) may stay open across its exec.
        _ = fcntl(input[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(input[1], F_SETFD, FD_CLOEXEC)
        defer { close(input[0]) }
        let child = try ChildProcess(Products.path("health-sandbox"),
                                     ["run", appID, "--socket", world.adminSocket, "--data", app.data, "--allow-write", rootOwned,
                                      "--", app.executable, "hold", app.data, rootOwned],
                                     stdin: input[0], stdout: output, stderr: output)
        let deadline = Date().addingTimeInterval(120)
        var text = ""
        while !text.contains("holding"), child.isRunning, Date() < deadline {
            usleep(20_000)
            text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        }
        let status = Self.statusOfProcess(runningExecutable: app.executable)
        close(input[1])
        _ = await child.wait(timeout: 30)
        text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        return HeldRun(outsideUIDs: status.uids, outsideGroups: status.groups, output: text)
    }

    /// The Uid and Groups lines of /proc/PID/status for the process whose executable is `path`.
    static func statusOfProcess(runningExecutable path: String) -> (uids: [UInt32], groups: [String]) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries where Int32(entry) != nil {
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/exe")) == path,
                  let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8) else { continue }
            var uids: [UInt32] = []
            var groups: [String] = []
            for line in status.split(separator: "\n") {
                let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
                if fields.first == "Uid:" { uids = fields.dropFirst().compactMap { UInt32($0) } }
                if fields.first == "Groups:" { groups = fields.dropFirst().map(String.init) }
            }
            return (uids, groups)
        }
        return ([], ["no process runs \(path)"])
    }
}
