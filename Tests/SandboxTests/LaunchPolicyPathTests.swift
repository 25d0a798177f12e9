import Foundation
import Glibc
import HealthSandboxKit
import Testing

/// `LaunchPolicy.checked`, the one place every path shown to an app is decided: generated
/// option × path combinations on a real folder tree (a home holding the store, a socket
/// folder, an app folder, links), no processes. The real sandbox runs are in
/// `VisiblePathsEscapeTests`.
@Suite(.timeLimit(.minutes(10))) struct LaunchPolicyPathTests {
    /// root/home/.local/share/openhealth (store, with machine.key), root/run (sockets),
    /// root/home/apps/a/app (executable), root/outside, root/home-link → root/home,
    /// root/store-link → the store.
    final class Tree {
        let root = NSTemporaryDirectory() + "ohk-policy-" + UUID().uuidString.prefix(8)
        var home: String { root + "/home" }
        var store: String { home + "/.local/share/openhealth" }
        var sockets: String { root + "/run" }
        var appFolder: String { home + "/apps/a" }
        var executable: String { appFolder + "/app" }
        var outside: String { root + "/outside" }
        /// A second home of the user (`HOME` differs from the password database), holding nothing of healthd's.
        var otherHome: String { root + "/other-home" }
        var protected: ProtectedFolders {
            ProtectedFolders(healthFolders: [.init(what: "healthd's store folder", path: store),
                                             .init(what: "healthd's socket folder", path: sockets)], homes: [home, otherHome])
        }

        init() throws {
            for folder in [store, sockets, appFolder, appFolder + "/data", home + "/data", outside, otherHome] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            _ = FileManager.default.createFile(atPath: store + "/machine.key", contents: Data([1]))
            _ = FileManager.default.createFile(atPath: executable, contents: Data(), attributes: [.posixPermissions: 0o755])
            symlink(home, root + "/home-link")
            symlink(store, root + "/store-link")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func check(allowRead: [String] = [], allowWrite: [String] = [], data: String? = nil,
                   executable: String? = nil) -> Result<LaunchPolicy, PolicyPathRefusal> {
            Result { () throws(PolicyPathRefusal) in
                try LaunchPolicy.checked(executable: executable ?? self.executable, allowRead: allowRead, allowWrite: allowWrite,
                                         data: data, protecting: protected)
            }
        }
    }

    enum Option: CaseIterable { case allowRead, allowWrite, data }

    static func run(_ tree: Tree, _ option: Option, _ path: String) -> Result<LaunchPolicy, PolicyPathRefusal> {
        switch option {
        case .allowRead: tree.check(allowRead: [path])
        case .allowWrite: tree.check(allowWrite: [path])
        case .data: tree.check(data: path)
        }
    }

    /// Each refused path, by the reason it must give; the same for every option.
    @Test(arguments: Option.allCases)
    func everyOptionRefusesWhatWouldShowTheStoreTheSocketsOrTheHome(option: Option) throws {
        let tree = try Tree()
        let cases: [(String, (PolicyPathRefusal.Reason) -> Bool)] = [
            ("/", { $0 == .root }),
            ("/tmp", { $0 == .privateTmp }),
            // The home holds the store: either reason is the refusal; a second home without one is refused as a home.
            (tree.home, { if case .containsProtected = $0 { true } else if case .containsHome = $0 { true } else { false } }),
            (tree.otherHome, { if case .containsHome(tree.otherHome) = $0 { true } else { false } }),
            (tree.root, { if case .containsProtected = $0 { true } else if case .containsHome = $0 { true } else { false } }),
            (tree.root + "/home-link", { if case .containsProtected = $0 { true } else if case .containsHome = $0 { true } else { false } }),
            (tree.home + "/.local", { if case .containsProtected(_, tree.store) = $0 { true } else { false } }),
            (tree.store, { if case .beneathProtected(_, tree.store) = $0 { true } else { false } }),
            (tree.store + "/machine.key", { if case .beneathProtected(_, tree.store) = $0 { true } else { false } }),
            (tree.store + "/not-yet-made", { if case .beneathProtected(_, tree.store) = $0 { true } else { false } }),
            (tree.root + "/store-link", { if case .beneathProtected(_, tree.store) = $0 { true } else { false } }),
            (tree.root + "/home-link/.local/share/openhealth/machine.key", { if case .beneathProtected = $0 { true } else { false } }),
            (tree.sockets, { if case .beneathProtected(_, tree.sockets) = $0 { true } else { false } }),
            (tree.sockets + "/app.sock", { if case .beneathProtected(_, tree.sockets) = $0 { true } else { false } }),
        ]
        for (path, expected) in cases {
            switch Self.run(tree, option, path) {
            case .success: Issue.record("\(option) \(path) was accepted")
            case let .failure(refusal):
                #expect(expected(refusal.reason), "\(option) \(path): \(refusal)")
                #expect(refusal.path == path && refusal.description.contains(path), "the refusal names the path: \(refusal)")
            }
        }
        // Folders of the app's own beneath the home, and outside it, are fine.
        for path in [tree.home + "/data", tree.outside] {
            #expect((try? Self.run(tree, option, path).get()) != nil, "\(option) \(path) was refused")
        }
    }

    /// The executable is bound as a file: its folder (which may be the home, holding the store)
    /// is not in the policy; an executable inside a protected folder is refused like any path.
    @Test func theExecutableIsTheFileNotItsFolder() throws {
        let tree = try Tree()
        let policy = try tree.check().get()
        #expect(policy.readExecutePaths.contains(tree.executable))
        #expect(!policy.readExecutePaths.contains(tree.appFolder) && !policy.readExecutePaths.contains(tree.home), "\(policy)")
        FileManager.default.createFile(atPath: tree.home + "/my-app", contents: Data(), attributes: [.posixPermissions: 0o755])
        let inHome = try tree.check(executable: tree.home + "/my-app").get()
        #expect(!inHome.readExecutePaths.contains(tree.home), "\(inHome)")
        guard case let .failure(refusal) = tree.check(executable: tree.store + "/machine.key") else {
            Issue.record("an executable in the store was accepted")
            return
        }
        #expect(refusal.origin == .executable, "\(refusal)")
    }

    /// Landlock's rights add up along a path: nothing the app may write may lie in (or be) a
    /// path it may execute from. The reverse — an executable path in a writable folder — is
    /// bound read-only over it and stays allowed for the app's own paths (`--allow-read`); one
    /// other programs load code from is refused (`CodeFolderRenameTests`).
    @Test func nothingWritableLiesInAnExecutablePath() throws {
        let tree = try Tree()
        let nested: [(allowRead: [String], allowWrite: [String], data: String?)] = [
            ([tree.appFolder], [], tree.appFolder + "/data"),
            ([tree.appFolder], [tree.appFolder + "/data"], nil),
            ([tree.appFolder], [tree.appFolder], nil),
            ([tree.home + "/apps"], [], tree.appFolder + "/data"),
            ([tree.root + "/home-link/apps"], [tree.appFolder + "/data"], nil),
        ]
        for (read, write, data) in nested {
            guard case let .failure(refusal) = tree.check(allowRead: read, allowWrite: write, data: data) else {
                Issue.record("read \(read) write \(write) data \(data ?? "-") was accepted")
                continue
            }
            guard case .writableBeneathExecutable = refusal.reason else {
                Issue.record("\(refusal)")
                continue
            }
            #expect(refusal.description.contains(read[0]), "names the executable folder: \(refusal)")
        }
        #expect((try? tree.check(data: tree.appFolder + "/data").get()) != nil, "data beside the executable file is fine")
        #expect((try? tree.check(allowRead: [tree.appFolder + "/data"], allowWrite: [tree.appFolder]).get()) != nil,
                "an executable folder inside a writable one is bound read-only over it")
    }

    /// The runtime library folders (`LaunchPolicy.codeFolders`) are those of every library this
    /// process mapped, and a writable folder holding one is refused as holding the runtime's.
    /// Before session 20 /proc/self/maps was read with `String(contentsOfFile:)`, which stops
    /// after one read of a /proc file (4 KiB). This process has a library of each of its folders
    /// in those 4 KiB, so this passes with the old reading too; `CodeFolderRenameTests` (a
    /// runtime folder holding one library only) is the one that told them apart — there the
    /// folder was neither bound read-only for the app nor protected from its writes.
    @Test func theRuntimeFoldersAreThoseOfEveryLoadedLibrary() throws {
        let maps = try ProcFile.contents(of: "/proc/self/maps")
        let loaded = Set(maps.split(separator: "\n").compactMap { line -> String? in
            guard let slash = line.firstIndex(of: "/"), line.hasSuffix(".so") || line.contains(".so.") else { return nil }
            return (String(line[slash...]) as NSString).deletingLastPathComponent
        })
        let folders = Set(LaunchPolicy.codeFolders().map(\.path))
        #expect(!loaded.isEmpty && loaded.isSubset(of: folders), "missing: \(loaded.subtracting(folders).sorted())")
        let core = try #require(CodeFolderRenameTests.loadedLibrary(named: "libswiftCore.so"), "the Swift runtime is not loaded from a file")
        let folder = (core as NSString).deletingLastPathComponent
        let tree = try Tree()
        guard case let .failure(refusal) = tree.check(allowWrite: [(folder as NSString).deletingLastPathComponent]),
              case .holdsCodeFolder(folder, .runtime) = refusal.reason else {
            Issue.record("a writable folder holding \(folder) was not refused as holding the runtime's folder")
            return
        }
    }

    /// Session 19 review, finding 4: no path the app may write is, or holds, code another
    /// identity runs — another installed app's executable or a manager tool — named, through a
    /// link, or as the file itself; by `--allow-write` and `--data` alike. Reading it is fine,
    /// and so is a writable folder holding only the app's own executable (healthd's list leaves
    /// it out: `ProtectedFolders.executables(named:launching:launcher:)`).
    @Test func aWritablePathHoldingAnotherIdentitysExecutableIsRefused() throws {
        let tree = try Tree()
        let other = tree.home + "/apps/b/app-b", tool = tree.root + "/tools/healthctl"
        for file in [other, tool] {
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: file, contents: Data(), attributes: [.posixPermissions: 0o755])
        }
        symlink(tree.home + "/apps/b", tree.root + "/b-link")
        let executables = ProtectedFolders.executables(
            named: [.init(path: tree.executable, appID: "org.test.a"), .init(path: other, appID: "org.test.b"), .init(path: tool)],
            launching: "org.test.a", launcher: nil)
        #expect(executables.map(\.path) == [other, tool], "the app's own executable is not protected from it: \(executables)")
        var protected = tree.protected
        protected.executables = executables
        let holding: [(path: String, named: String)] = [
            (tree.home + "/apps", other), (tree.home + "/apps/b", other), (tree.root + "/b-link", other), (other, other),
            (tree.root + "/b-link/app-b", other), (tree.root + "/tools", tool), (tool, tool),
        ]
        for (path, named) in holding {
            for (option, result) in [("--allow-write", Result { () throws(PolicyPathRefusal) in
                                         try LaunchPolicy.checked(executable: tree.executable, allowWrite: [path], protecting: protected) }),
                                     ("--data", Result { () throws(PolicyPathRefusal) in
                                         try LaunchPolicy.checked(executable: tree.executable, data: path, protecting: protected) })] {
                guard case let .failure(refusal) = result, case .holdsExecutable(_, named) = refusal.reason else {
                    Issue.record("\(option) \(path): \(result)")
                    continue
                }
                #expect(refusal.description.contains(path) && refusal.description.contains(named), "\(refusal)")
            }
            #expect((try? LaunchPolicy.checked(executable: tree.executable, allowRead: [path], protecting: protected)) != nil,
                    "--allow-read \(path) was refused")
        }
        for own in [tree.appFolder, tree.home + "/apps/b-sibling", tree.outside] {
            #expect((try? LaunchPolicy.checked(executable: tree.executable, allowWrite: [own], protecting: protected)) != nil,
                    "--allow-write \(own) was refused")
        }
    }
}
