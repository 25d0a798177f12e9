import Foundation
import Glibc
import Testing
import TestSupport

/// Session 19 review, findings 8 and 4, at the agent's start. The agent's own folders — its log
/// folder (`--log-dir`) and data root (`--data-root`) — are reached by no folder given to the
/// apps, shared or per app, to read or write, and do not overlap each other: an app that can
/// write the log folder plants a link there that the agent, unconfined, writes the app's output
/// through (into `~/.bashrc`), one that reaches the data root reaches every app's data. And no
/// folder an app may write is or holds a manager tool (health-sandbox itself, healthctl, healthd
/// beside it). Each is refused by the real command line before the agent connects anywhere —
/// exit 71 naming both paths — whoever runs it (root and an ordinary user), even with
/// `--allow-shared-writes`. Before the fix every case was accepted (commit message).
@Suite(.timeLimit(.minutes(10)), .serialized) struct AgentOwnFolderTests {
    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func theAgentsOwnFoldersAndToolsAreReachedByNoAppFolder(user: EscapeUser) async throws {
        let root = NSTemporaryDirectory() + "ohk-agent-own-" + UUID().uuidString.prefix(8)
        let shared = root + "/shared", logs = root + "/logs", data = root + "/data"
        for folder in [shared + "/logs", shared + "/data", logs + "/inner", data + "/inner", data + "/logs", root + "/outside"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(atPath: root) }
        symlink(shared, root + "/shared-link")
        let tools = Products.directory
        let cases: [(what: String, options: [String], names: [String])] = [
            ("log folder in a folder every app writes", ["--allow-write", shared, "--log-dir", shared + "/logs"], [shared, shared + "/logs"]),
            ("log folder is a folder every app writes", ["--allow-write", logs, "--log-dir", logs], [logs]),
            ("log folder holds a folder every app writes", ["--allow-write", logs + "/inner", "--log-dir", logs], [logs + "/inner", logs]),
            ("log folder in one app's writable folder", ["--app-allow-write", "org.test.a=\(shared)", "--log-dir", shared + "/logs"],
             [shared, shared + "/logs"]),
            ("log folder read by every app", ["--allow-read", shared, "--log-dir", shared + "/logs"], [shared, shared + "/logs"]),
            ("log folder read by one app", ["--app-allow-read", "org.test.a=\(shared)", "--log-dir", shared + "/logs"],
             [shared, shared + "/logs"]),
            ("log folder through a link", ["--allow-write", root + "/shared-link", "--log-dir", shared + "/logs"],
             [root + "/shared-link", shared + "/logs"]),
            ("shared on purpose", ["--allow-write", shared, "--log-dir", shared + "/logs", "--allow-shared-writes"],
             [shared, shared + "/logs"]),
            ("data root in a folder every app writes", ["--allow-write", shared, "--data-root", shared + "/data"], [shared, shared + "/data"]),
            ("data root holds a folder every app writes", ["--allow-write", data + "/inner", "--data-root", data], [data + "/inner", data]),
            ("data root read by every app", ["--allow-read", data, "--data-root", data], [data]),
            // Before session 20 refused as apps sharing a folder (64, waived by --allow-shared-writes,
            // after which this check refused it anyway): it is the agent's own.
            ("data root is one app's writable folder", ["--app-allow-write", "org.test.a=\(data)", "--data-root", data], [data]),
            ("log folder in the data root", ["--data-root", data, "--log-dir", data + "/logs"], [data, data + "/logs"]),
            ("every app writes the tools' folder", ["--allow-write", tools], [tools, "health"]),
            ("one app writes the tools' folder", ["--app-allow-write", "org.test.a=\(tools)"], [tools, "health"]),
        ]
        for (what, options, names) in cases {
            let refused = try await user.run(Products.path("health-sandbox"), ["agent", "--socket", root + "/none.sock"] + options)
            #expect(refused.status == 71, "\(user), \(what): \(refused)")
            for name in names { #expect(refused.stderr.contains(name), "\(user), \(what): \(name) not named: \(refused.stderr)") }
        }
        // Control: the same folders kept apart are accepted (the agent then keeps retrying the
        // absent healthd and is stopped after 3 s).
        let (program, arguments) = try await user.command(Products.path("health-sandbox"),
                                                          ["agent", "--socket", root + "/none.sock", "--allow-write", shared,
                                                           "--allow-read", root + "/outside", "--log-dir", logs, "--data-root", data])
        let accepted = try await ProcessRun.run(program, arguments, timeout: 3)
        #expect(accepted.status != 71 && accepted.status != 64, "\(user): apart: \(accepted)")
    }
}
