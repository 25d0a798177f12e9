import Foundation
import Glibc
import Testing
import TestSupport

/// Session 20 availability review, finding 4: a folder an app may only read and execute from,
/// bound read-only inside a folder it may write, is safe from writes in place but not from a
/// rename of its parent, which happens on the host: the app moves the parent aside, makes the
/// folder again and plants a file at its path. For the app's own folders that changes nothing
/// (the control below does it); for a folder other identities load code from — the runtime
/// libraries health-sandbox loaded, which healthctl and healthd load too, say a toolchain in a
/// folder of the user's — the app would plant a library that runs unconfined. Now
/// `health-sandbox run` refuses (exit 71, naming both paths) any writable path that holds such
/// a folder (`LaunchPolicy.codeFolders`: the runtime's, and the system folders every app gets).
///
/// Real healthd, real sandbox, as root and as an ordinary user. The runtime folder is made real
/// by starting health-sandbox with `LD_LIBRARY_PATH` naming a copy of the Swift runtime's core
/// library in `toolchain/x/lib`, as a toolchain under the home would be. Before the fix the
/// refused case ran: the write in place failed (EROFS), the rename, the new folder and the
/// planted file succeeded, and the host found the file at the runtime folder's path.
@Suite(.timeLimit(.minutes(10)), .serialized) struct CodeFolderRenameTests {
    static let writer = "org.test.renamer"

    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func noWritableFolderHoldsAFolderOtherProgramsLoadCodeFrom(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let writer = try await world.install(Self.writer, product: "escape-probe")
        let core = try #require(Self.loadedLibrary(named: "libswiftCore.so"), "the Swift runtime is not loaded from a file")

        // The runtime copy: toolchain/x/lib/libswiftCore.so, toolchain writable by the app.
        let toolchain = try await Self.folder(world, "toolchain", holding: core)
        let runtime = toolchain + "/x/lib"
        let original = FileManager.default.contents(atPath: runtime + "/libswiftCore.so")
        let refused = try await world.runSandboxed(Self.writer, data: nil, [writer.executable, "replace-bound", runtime],
                                                   allowWrite: [toolchain], environment: ["LD_LIBRARY_PATH": runtime])
        #expect(refused.status == 71, "\(user): \(refused)")
        #expect(refused.stderr.contains(toolchain) && refused.stderr.contains(runtime + " (a runtime library folder"),
                "\(user): \(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: runtime + "/planted"), "\(user): the app planted a file in the runtime folder")
        #expect(!FileManager.default.fileExists(atPath: toolchain + "/x.aside"), "\(user): the app moved the runtime folder aside")
        #expect(FileManager.default.contents(atPath: runtime + "/libswiftCore.so") == original, "\(user): the runtime library changed")

        // A writable folder holding a system folder every app is given (no app could write /usr
        // as it runs; the rule is the same).
        let system = try await world.runSandboxed(Self.writer, data: nil, [writer.executable, "replace-bound", "/usr/lib"],
                                                  allowWrite: ["/usr"])
        #expect(system.status == 71 && system.stderr.contains("/usr/lib"), "\(user): /usr: \(system)")

        // Control: the app's own library folder, given with --allow-read inside its writable
        // folder, is accepted — and the same steps plant a file there, on the host: the read-only
        // bind never stopped this, so what protects the runtime is the refusal above.
        let own = try await Self.folder(world, "own", holding: core)
        let ownLibrary = own + "/x/lib"
        let control = try await world.runSandboxed(Self.writer, data: nil, [writer.executable, "replace-bound", ownLibrary],
                                                   allowRead: [ownLibrary], allowWrite: [own])
        #expect(control.status == 0, "\(user): own folder: \(control)")
        #expect(control.lines.contains("write_in_place: denied (EROFS)"), "\(user): own folder: \(control)")
        #expect(control.lines.contains("plant: allowed"), "\(user): own folder: \(control)")
        #expect((try? String(contentsOfFile: ownLibrary + "/planted", encoding: .utf8)) == "planted by the app\n",
                "\(user): own folder: nothing planted on the host: \(control)")
    }

    /// `root/name/x/lib` holding a copy of `library`, made by the world's user; `root/name` is
    /// writable by the app (as root, the app runs as a uid of its own).
    static func folder(_ world: EscapeWorld, _ name: String, holding library: String) async throws -> String {
        let folder = world.root + "/" + name
        let made = try await world.user.run("/bin/mkdir", ["-p", folder + "/x/lib"])
        guard made.status == 0 else { throw CommandFailed(result: made) }
        let copied = try await world.user.run("/bin/cp", [library, folder + "/x/lib/"])
        guard copied.status == 0 else { throw CommandFailed(result: copied) }
        if world.user == .root { chmod(folder, 0o777) }
        return folder
    }

    /// The file this process mapped a shared library `named` from (/proc/self/maps).
    static func loadedLibrary(named name: String) -> String? {
        guard let maps = try? ProcFile.contents(of: "/proc/self/maps") else { return nil }
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            if (path as NSString).lastPathComponent == name { return path }
        }
        return nil
    }
}
