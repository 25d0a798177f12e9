import Foundation
public import HealthWire

/// Code that another identity runs: other installed apps' executables, and the manager tools
/// (healthctl, health-sandbox) and healthd. A folder an app may write that is or holds one would
/// let the app replace it: the next launch of the other app would run the writer's code as that
/// app, with its grants (a launch binds an app id, not a file; a direct app is the file at its
/// manifest's path, whatever was written into it), and a replaced healthctl would run as the
/// user, unconfined, and pass the admin socket's checks (path and device/inode of the file at
/// the path). `LaunchPolicy.checked` refuses such a writable path; `AgentFolderGrants` does
/// for the agent's options at start.
extension ProtectedFolders {
    public struct Executable: Sendable, Equatable {
        /// Whose it is, for the refusal ("org.example.other's executable").
        public var what: String
        public var path: String

        public init(what: String, path: String) {
            self.what = what
            self.path = path
        }
    }

    /// What healthd named with the launch binding, except the launched app's own executable
    /// (writing its own file changes nothing about who it is), plus the tools next to this
    /// program (`health-sandbox`'s own path, healthctl and healthd beside it): a healthd that
    /// predates the list, or runs elsewhere, still protects the tools launching here.
    public static func executables(named binding: [LaunchBinding.Executable], launching appID: String,
                                   launcher: String?) -> [Executable] {
        var executables: [Executable] = []
        for executable in binding where executable.path.hasPrefix("/") && executable.appID != appID {
            executables.append(Executable(what: executable.appID.isEmpty ? "a manager tool healthd trusts"
                                              : "\(TerminalEscape.shown(String(executable.appID.prefix(128))))'s executable",
                                          path: executable.path))
        }
        executables += localTools(launcher: launcher)
        var seen = Set<String>()
        return executables.filter { seen.insert($0.path).inserted }
    }

    /// This program and the tools installed beside it.
    public static func localTools(launcher: String?) -> [Executable] {
        guard let launcher, launcher.hasPrefix("/") else { return [] }
        let folder = (launcher as NSString).deletingLastPathComponent
        return [Executable(what: "health-sandbox (this program)", path: launcher)]
            + ["healthctl", "healthd"].map { Executable(what: "the manager tool \($0)", path: folder + "/" + $0) }
    }

    /// The first executable that `writable` is or holds, if any: compared by name and by device
    /// and inode (`PathLineage`) with every folder that holds a name on the way to the file, as
    /// named and with links resolved (a link in the writable folder can be replaced too).
    func executable(heldBy writable: PathLineage) -> Executable? {
        executables.first { executable in
            Self.holders(of: executable.path).contains { $0.isWithin(writable) }
        }
    }

    /// The file itself and each folder holding a component of its path, as named and resolved.
    static func holders(of path: String) -> [PathLineage] {
        let named = (path as NSString).standardizingPath
        let resolved = PathLineage(named)
        var paths: [String] = []
        for name in [named, resolved.resolved] {
            var prefix = ""
            for component in name.split(separator: "/") {
                paths.append(prefix.isEmpty ? "/" : prefix)
                prefix += "/" + component
            }
        }
        var seen = Set<String>()
        return [resolved] + paths.filter { seen.insert($0).inserted }.map(PathLineage.init)
    }
}
