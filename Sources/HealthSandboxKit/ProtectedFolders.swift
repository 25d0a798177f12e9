import Foundation
import Glibc

/// Folders that no path shown to a launched app may be, contain, or (for healthd's own) lie
/// beneath, whichever option named the path: healthd's store folder (the database and
/// `machine.key`: whoever reads both decrypts every app's data) and socket folder, as healthd
/// reports them with the launch binding, and the same folders at their default places; and the
/// launching user's home, which holds them by default along with `~/.ssh` and the like.
///
/// A path beneath the home (`~/apps/hr`) is fine; a path beneath the store or socket folder is
/// not. And code other identities run (`executables`: other apps', the manager tools') may not be
/// or lie in a path the app may write (`ProtectedFolders+Executables`). Compared by device and inode along each path's ancestors as well as by resolved name,
/// so a link or a bind-mounted alias of a protected folder is the same folder.
public struct ProtectedFolders: Sendable, Equatable {
    public struct Folder: Sendable, Equatable {
        /// What it is, for the refusal ("healthd's store folder").
        public var what: String
        public var path: String

        public init(what: String, path: String) {
            self.what = what
            self.path = path
        }
    }

    /// Refused when equal to, containing, or beneath a policy path.
    public var healthFolders: [Folder]
    /// Refused when equal to or containing a policy path (the first is named in refusals).
    public var homes: [String]
    /// Refused when equal to or beneath a writable policy path.
    public var executables: [Executable]

    public init(healthFolders: [Folder], homes: [String], executables: [Executable] = []) {
        self.healthFolders = healthFolders
        self.homes = homes
        self.executables = executables
    }

    /// The folders healthd named (empty strings from an older healthd are skipped), the default
    /// store and socket folders, and the home of the user running this process (from the
    /// password database and from `HOME`, when they differ).
    public static func forLaunch(storeDirectory: String, socketDirectory: String, defaultStore: String,
                                 defaultSocketDirectory: String, executables: [Executable] = []) -> ProtectedFolders {
        var folders: [Folder] = []
        for (what, path) in [("healthd's store folder", storeDirectory), ("healthd's socket folder", socketDirectory),
                             ("the default store folder", defaultStore), ("the default socket folder", defaultSocketDirectory)]
        where path.hasPrefix("/") && !folders.contains(where: { $0.path == path }) {
            folders.append(Folder(what: what, path: path))
        }
        var homes: [String] = []
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir { homes.append(String(cString: directory)) }
        if let variable = ProcessInfo.processInfo.environment["HOME"], variable.hasPrefix("/"), !homes.contains(variable) {
            homes.append(variable)
        }
        return ProtectedFolders(healthFolders: folders, homes: homes, executables: executables)
    }
}

/// Where a path of the launch policy came from, for the refusal's message.
public enum PolicyPathOrigin: String, Sendable, Equatable {
    case executable = "the app's executable"
    case allowRead = "--allow-read"
    case allowWrite = "--allow-write"
    case data = "--data"
    case runtime = "a runtime library folder of health-sandbox"
    case base = "the base layout"
}

/// Why a path may not be shown to the app: typed, naming the path, where it came from and the fix.
/// `health-sandbox run` exits 71 with it before anything is mounted.
public struct PolicyPathRefusal: Error, CustomStringConvertible, Equatable {
    public enum Reason: Sendable, Equatable {
        case root
        case privateTmp
        case containsHome(String)
        case containsProtected(what: String, folder: String)
        case beneathProtected(what: String, folder: String)
        /// A writable path equal to or beneath one the app may execute from: Landlock's rights add
        /// up along a path, so what the app writes there it could run.
        case writableBeneathExecutable(executablePath: String, executableOrigin: PolicyPathOrigin)
        /// A writable path that is or holds code another identity runs (`ProtectedFolders.executables`).
        case holdsExecutable(what: String, executable: String)
        /// A writable path that holds a folder other identities load code from
        /// (`LaunchPolicy.codeFolders`): the app could rename the folder's parent and plant a
        /// library at its path on the host, read-only bind or not.
        case holdsCodeFolder(folder: String, folderOrigin: PolicyPathOrigin)
    }

    public let path: String
    public let origin: PolicyPathOrigin
    public let reason: Reason

    public var description: String {
        let named = "\(origin.rawValue) \(path)"
        switch reason {
        case .root:
            return "\(named) is the root folder: the app would see every file, the health store and its key among them; "
                + "name the app's own folder instead"
        case .privateTmp:
            return "\(named) is /tmp: the app gets a private /tmp of its own, which that would replace with the host's; "
                + "name a folder beneath /tmp instead"
        case let .containsHome(home):
            return "\(named) is or contains your home folder \(home), which holds the health store, its key and your other "
                + "files; name a folder inside it instead (e.g. \(home)/apps/APP)"
        case let .containsProtected(what, folder):
            return "\(named) contains \(what) \(folder) (the health database and its key, or healthd's sockets); "
                + "no app may see it: name a folder that does not contain it"
        case let .beneathProtected(what, folder):
            return "\(named) lies in \(what) \(folder) (the health database and its key, or healthd's sockets); "
                + "no app may see it: choose a folder outside it"
        case let .writableBeneathExecutable(executablePath, executableOrigin):
            return "\(named) is writable and lies in \(executablePath), which the app may execute from (\(executableOrigin.rawValue)): "
                + "the app could run what it writes there; give it a writable folder outside \(executablePath)"
        case let .holdsExecutable(what, executable):
            return "\(named) is writable and is or holds \(what) \(executable): the app could replace it, and its code would then "
                + "run as another identity (another app with that app's grants, or you, unconfined); give it a writable folder "
                + "that holds no other program"
        case let .holdsCodeFolder(folder, folderOrigin):
            return "\(named) is writable and holds \(folder) (\(folderOrigin.rawValue)), which other programs load code or data "
                + "from (healthctl and healthd among them, unconfined): the app could move it aside and plant a library at its path, "
                + "read-only or not inside the sandbox; give it a writable folder that holds no library folder"
        }
    }
}
