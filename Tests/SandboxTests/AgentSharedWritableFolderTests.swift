import Foundation
import Glibc
import Testing
import TestSupport

/// Session 20 availability review, finding 3: a folder every app the agent launches may write
/// (`--allow-write S`) was never compared with the folders given to one app: with
/// `--app-allow-read B=S/b-lib`, every app could write B's library folder, and B's next launch
/// ran their code as B, with B's grants. The agent now refuses, at its start, any folder apps
/// may write (one app's or every app's) that is, contains or lies in a folder another identity
/// reaches — one app's folders, a folder every app reads and runs from, the agent's log folder
/// and data root, the tools and the runtime's library folders (AgentFolderCheck.swift, one rule).
/// The real command line, as root and as an ordinary user: exit 64 naming both paths, the app
/// and `--allow-shared-writes` (which waives the app-to-app cases only); 71 for the runtime's
/// folder. Before the fix every case here was accepted (commit message).
@Suite(.timeLimit(.minutes(10)), .serialized) struct AgentSharedWritableFolderTests {
    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func aFolderEveryAppWritesHoldsNoFolderOfOneAppNorOneEveryAppRunsFrom(user: EscapeUser) async throws {
        let root = NSTemporaryDirectory() + "ohk-agent-shared-" + UUID().uuidString.prefix(8)
        let shared = root + "/shared", library = shared + "/b-lib"
        for folder in [library + "/inner", shared + "/b-data", shared + "/tools", shared + "/more", root + "/apart"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(atPath: root) }
        symlink(shared, root + "/shared-link")
        let b = "org.test.b"
        let refused: [(what: String, options: [String], names: [String])] = [
            ("one app's library folder in a folder every app writes", ["--allow-write", shared, "--app-allow-read", "\(b)=\(library)"],
             [shared, library, b]),
            ("one app's library folder is a folder every app writes", ["--allow-write", library, "--app-allow-read", "\(b)=\(library)"],
             [library, b]),
            ("a folder every app writes in one app's library folder",
             ["--allow-write", library + "/inner", "--app-allow-read", "\(b)=\(library)"], [library + "/inner", library, b]),
            ("one app's writable folder in a folder every app writes", ["--allow-write", shared, "--app-allow-write", "\(b)=\(shared)/b-data"],
             [shared, shared + "/b-data", b]),
            ("through a link", ["--allow-write", root + "/shared-link", "--app-allow-read", "\(b)=\(library)"],
             [root + "/shared-link", library, b]),
            ("a folder every app runs from in a folder every app writes", ["--allow-write", shared, "--allow-read", shared + "/tools"],
             [shared, shared + "/tools"]),
        ]
        for (what, options, names) in refused {
            let result = try await user.run(Products.path("health-sandbox"), ["agent", "--socket", root + "/none.sock"] + options)
            #expect(result.status == 64, "\(user), \(what): \(result)")
            for name in names + ["--allow-shared-writes"] {
                #expect(result.stderr.contains(name), "\(user), \(what): \(name) not named: \(result.stderr)")
            }
        }

        // The runtime's library folder (healthctl and healthd load it too), whatever else is given:
        // 71, and --allow-shared-writes does not waive it.
        let runtime = try #require(CodeFolderRenameTests.loadedLibrary(named: "libswiftCore.so").map { ($0 as NSString).deletingLastPathComponent })
        let holder = (runtime as NSString).deletingLastPathComponent
        let code = try await user.run(Products.path("health-sandbox"),
                                      ["agent", "--socket", root + "/none.sock", "--allow-write", holder, "--allow-shared-writes"])
        #expect(code.status == 71 && code.stderr.contains(holder) && code.stderr.contains(runtime), "\(user): runtime: \(code)")

        // Accepted (the agent then keeps retrying the absent healthd and is stopped after 3 s):
        // the same folders shared on purpose, kept apart, folders every app writes inside each
        // other, and one app's own folders inside each other.
        let accepted: [(what: String, options: [String])] = [
            ("shared on purpose", ["--allow-write", shared, "--app-allow-read", "\(b)=\(library)", "--allow-shared-writes"]),
            ("apart", ["--allow-write", shared + "/more", "--app-allow-read", "\(b)=\(library)", "--allow-read", root + "/apart"]),
            ("every app's, nested", ["--allow-write", shared, "--allow-write", shared + "/more"]),
            ("one app's own, nested", ["--app-allow-write", "\(b)=\(shared)", "--app-allow-read", "\(b)=\(library)"]),
        ]
        for (what, options) in accepted {
            let (program, arguments) = try await user.command(Products.path("health-sandbox"),
                                                              ["agent", "--socket", root + "/none.sock"] + options)
            let result = try await ProcessRun.run(program, arguments, timeout: 3)
            #expect(result.status != 64 && result.status != 71, "\(user), \(what): \(result)")
        }
    }
}
