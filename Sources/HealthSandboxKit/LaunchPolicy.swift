import Foundation

/// Which parts of the file system a launched app may touch: the one place every path the app
/// will see is decided and checked. Decided here, in Swift; bubblewrap binds it
/// (`NamespaceLayout`) and the C confinement code applies it with Landlock.
///
/// What an app gets: the system libraries, the directories of the runtime libraries this
/// launcher itself has loaded (for a Swift app, the Swift runtime), its executable — the file,
/// never its folder — a few device and /etc files, and the folders the user names (`--allow-read`,
/// `--allow-write`, `--data`). Every path is checked (`checked`): none may be `/`, `/tmp`, the
/// user's home or a folder containing it, or be, contain or lie in healthd's store or socket
/// folder; none the app may write may lie in one it may execute from, nor be or hold code
/// another identity runs (other installed apps' executables, the manager tools, healthd) or a
/// folder such code is loaded from (the system and runtime library folders, `codeFolders`).
public struct LaunchPolicy: Sendable, Equatable {
    public var readExecutePaths: [String]
    public var readWritePaths: [String]

    public init(readExecutePaths: [String], readWritePaths: [String]) {
        self.readExecutePaths = readExecutePaths
        self.readWritePaths = readWritePaths
    }

    /// What every app may read and execute, whatever it is.
    static let systemReadable = ["/usr/lib", "/lib", "/lib64", "/usr/lib64", "/usr/share/zoneinfo",
                                 "/etc/ld.so.cache", "/etc/localtime", "/dev/urandom", "/dev/random",
                                 "/sys/devices/system/cpu",
                                 // libdispatch (every Swift app) reads /proc/<thread id>/stat of its own
                                 // threads and traps when it cannot; thread ids are not known in advance,
                                 // so /proc is readable. The kernel still applies its ptrace access checks
                                 // to other processes' entries, and healthd makes itself non-dumpable.
                                 "/proc"]

    /// The policy for one launch, or the first path that may not be shown to the app.
    /// `executable` is bound as a file: an app with shared libraries or data of its own beside it
    /// names that folder with `allowRead`. Paths that do not exist are left out (Landlock and
    /// bubblewrap need existing ones), after the check.
    public static func checked(executable: String, allowRead: [String] = [], allowWrite: [String] = [], data: String? = nil,
                               protecting protected: ProtectedFolders) throws(PolicyPathRefusal) -> LaunchPolicy {
        let readable = systemReadable.map { ($0, PolicyPathOrigin.base) } + loadedLibraryDirectories().map { ($0, .runtime) }
            + [(executable, .executable)] + allowRead.map { ($0, .allowRead) }
        let writable = [("/dev/null", PolicyPathOrigin.base)] + allowWrite.map { ($0, .allowWrite) }
            + [data].compactMap { $0 }.map { ($0, .data) }
        let readLineages = readable.map { (path: $0.0, origin: $0.1, lineage: PathLineage($0.0)) }
        let writeLineages = writable.map { (path: $0.0, origin: $0.1, lineage: PathLineage($0.0)) }
        let healthFolders = protected.healthFolders.map { ($0, PathLineage($0.path)) }
        let homes = protected.homes.map { ($0, PathLineage($0)) }

        for entry in readLineages + writeLineages {
            let refuse = { (reason: PolicyPathRefusal.Reason) in PolicyPathRefusal(path: entry.path, origin: entry.origin, reason: reason) }
            if entry.lineage.resolved == "/" { throw refuse(.root) }
            if entry.lineage.resolved == "/tmp" { throw refuse(.privateTmp) }
            for (folder, lineage) in healthFolders {
                if entry.lineage.isWithin(lineage) { throw refuse(.beneathProtected(what: folder.what, folder: folder.path)) }
                if lineage.isWithin(entry.lineage) { throw refuse(.containsProtected(what: folder.what, folder: folder.path)) }
            }
            for (home, lineage) in homes where lineage.isWithin(entry.lineage) { throw refuse(.containsHome(home)) }
        }
        for written in writeLineages {
            if let held = protected.executable(heldBy: written.lineage) {
                throw PolicyPathRefusal(path: written.path, origin: written.origin,
                                        reason: .holdsExecutable(what: held.what, executable: held.path))
            }
        }
        // Landlock grants the union of the rules on a path's ancestors: a writable folder in an
        // executable one would be executable too.
        for written in writeLineages {
            for executed in readLineages where written.lineage.isWithin(executed.lineage) {
                throw PolicyPathRefusal(path: written.path, origin: written.origin,
                                        reason: .writableBeneathExecutable(executablePath: executed.path, executableOrigin: executed.origin))
            }
        }
        // The reverse, an executable path in a writable folder, is bound read-only over it: the
        // app cannot change the bound folder in place, but it can rename the folder's parent (which
        // lies in the writable one, on the host) and create a new folder and files at the old path
        // (session 20 availability review, finding 4). For the app's own paths that changes nothing;
        // for a folder other identities load code from it would plant a library healthctl and
        // healthd load, unconfined. So no writable path may hold one (`codeFolders`).
        for written in writeLineages where written.origin != .base {
            for loaded in readLineages where loaded.origin == .base || loaded.origin == .runtime {
                if loaded.lineage.isWithin(written.lineage) {
                    throw PolicyPathRefusal(path: written.path, origin: written.origin,
                                            reason: .holdsCodeFolder(folder: loaded.path, folderOrigin: loaded.origin))
                }
            }
        }
        let existing = { (paths: [String]) in
            var seen = Set<String>()
            return paths.filter { FileManager.default.fileExists(atPath: $0) && seen.insert($0).inserted }
        }
        return LaunchPolicy(readExecutePaths: existing(readable.map(\.0)), readWritePaths: existing(writable.map(\.0)))
    }

    /// The first writable path equal to or beneath a read-execute one, if any: the second stage
    /// (inside the namespaces, with its private /tmp added) asserts there is none before Landlock.
    public func writableBeneathExecutable() -> (writable: String, executable: String)? {
        let executable = readExecutePaths.map { ($0, PathLineage($0)) }
        for written in readWritePaths {
            let lineage = PathLineage(written)
            if let parent = executable.first(where: { lineage.isWithin($0.1) }) { return (written, parent.0) }
        }
        return nil
    }

    /// The folders code of other identities is loaded from, beside the tools' own files: the
    /// system folders every app is given, and the folders of the runtime libraries this program
    /// has loaded (healthctl and healthd load the same runtime). No path an app may write may be,
    /// hold or lie in one: `checked` for each launch, `AgentFolderGrants.checked` at the agent's start.
    /// The runtime's come first: a refusal names the most specific folder.
    public static func codeFolders() -> [ProtectedFolders.Folder] {
        loadedLibraryDirectories().map {
            ProtectedFolders.Folder(what: "a runtime library folder of health-sandbox (healthctl and healthd load it too)", path: $0)
        } + systemReadable.map { ProtectedFolders.Folder(what: "a system folder every app is given", path: $0) }
    }

    /// Directories of the shared libraries mapped into this process (from /proc/self/maps, read
    /// to its end: `String(contentsOfFile:)` trusts the size stat reports, 0 for /proc files, and
    /// stops after one read — the first 4 KiB, which held the executable's own mappings and a few
    /// libraries' only, until session 20).
    static func loadedLibraryDirectories() -> [String] {
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps") else { return [] }
        defer { try? handle.close() }
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        var directories = Set<String>()
        for line in maps.split(separator: "\n") {
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = String(line[slash...])
            guard path.contains(".so") else { continue }
            directories.insert((path as NSString).deletingLastPathComponent)
        }
        return directories.sorted()
    }
}
