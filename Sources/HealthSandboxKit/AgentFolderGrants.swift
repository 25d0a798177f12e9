import Foundation

/// The folders `health-sandbox agent` gives the apps it launches, beyond each one's data folder:
/// some to every app (`--allow-read`, `--allow-write`: shared — what one app writes there every
/// other can read, and a folder every app may write is one they can leave files and messages
/// in for each other) and some to one app only (`--app-allow-read APP-ID=PATH`,
/// `--app-allow-write APP-ID=PATH`).
///
/// The check (`checked`) keeps a folder given to one app writable its own: it may not be,
/// contain or lie in a folder another app is given (to read or write, per app or shared) nor
/// the data root (other apps' data folders), unless the user says so with
/// `--allow-shared-writes`. Links and bind-mounted aliases count as the folder they name
/// (`PathLineage`). Each launch still applies `LaunchPolicy.checked` to what it gets.
public struct AgentFolderGrants: Sendable, Equatable {
    public struct Folders: Sendable, Equatable {
        public var readable: [String] = []
        public var writable: [String] = []

        public init(readable: [String] = [], writable: [String] = []) {
            self.readable = readable
            self.writable = writable
        }
    }

    /// Given to every app.
    public var shared: Folders
    /// Given to one app each, by app id.
    public var perApp: [String: Folders]
    /// Each app's data folder is `dataRoot/APP-ID`.
    public var dataRoot: String?

    public init(shared: Folders = Folders(), perApp: [String: Folders] = [:], dataRoot: String? = nil) {
        self.shared = shared
        self.perApp = perApp
        self.dataRoot = dataRoot
    }

    /// The per-app options' values (`APP-ID=PATH`, split at the first `=`: ids hold none) by app id.
    public static func perApp(readable: [String], writable: [String]) throws(AgentFolderRefusal) -> [String: Folders] {
        var folders: [String: Folders] = [:]
        for (option, values, isWritable) in [("--app-allow-read", readable, false), ("--app-allow-write", writable, true)] {
            for value in values {
                guard let equals = value.firstIndex(of: "=") else { throw .malformed(option: option, value: value) }
                let appID = String(value[..<equals]), path = String(value[value.index(after: equals)...])
                guard LaunchAppID.isUsable(appID) else { throw .invalidAppID(option: option, appID: appID) }
                guard path.hasPrefix("/") else { throw .notAbsolute(option: option, path: path) }
                if isWritable { folders[appID, default: Folders()].writable.append(path) } else { folders[appID, default: Folders()].readable.append(path) }
            }
        }
        return folders
    }

    /// What the app `appID` is given: the shared folders and its own.
    public func folders(for appID: String) -> Folders {
        let own = perApp[appID] ?? Folders()
        return Folders(readable: shared.readable + own.readable, writable: shared.writable + own.writable)
    }

    /// Refuses a folder given to one app writable that another app also reaches (see the type's
    /// comment), unless `allowSharedWrites`.
    public func checked(allowSharedWrites: Bool) throws(AgentFolderRefusal) {
        guard !allowSharedWrites else { return }
        for (appID, own) in perApp.sorted(by: { $0.key < $1.key }) {
            for writable in own.writable {
                let lineage = PathLineage(writable)
                for other in reachedByOthers(than: appID) {
                    let otherLineage = PathLineage(other.path)
                    if lineage.isWithin(otherLineage) || otherLineage.isWithin(lineage) {
                        throw .sharedWritable(appID: appID, path: writable, other: other.who, otherPath: other.path)
                    }
                }
            }
        }
    }

    /// Every folder some app other than `appID` is given, and who that is.
    private func reachedByOthers(than appID: String) -> [(who: String, path: String)] {
        var reached = (shared.readable + shared.writable).map { (who: "every app (--allow-read/--allow-write)", path: $0) }
        if let dataRoot { reached.append((who: "every app's data folder (--data-root)", path: dataRoot)) }
        for (otherID, folders) in perApp.sorted(by: { $0.key < $1.key }) where otherID != appID {
            reached += (folders.readable + folders.writable).map { (who: otherID, path: $0) }
        }
        return reached
    }
}

/// Why `health-sandbox agent` refuses its folder options: typed, naming the option, the path
/// and the fix.
public enum AgentFolderRefusal: Error, CustomStringConvertible, Equatable {
    case malformed(option: String, value: String)
    case invalidAppID(option: String, appID: String)
    case notAbsolute(option: String, path: String)
    case sharedWritable(appID: String, path: String, other: String, otherPath: String)
    /// A folder given to an app (`option`) is, contains or lies in one of the agent's own
    /// (`--log-dir`, `--data-root`), or those two overlap (`checkedAgentFolders`).
    case agentFolderReached(option: String, path: String, agentOption: String, agentFolder: String)
    /// A folder given to an app writable is or holds a tool another identity runs.
    case holdsExecutable(option: String, path: String, what: String, executable: String)

    /// `health-sandbox agent`'s exit code for it: 64 for options that do not say what they mean
    /// or share a folder without saying so, 71 for a folder layout that would let an app out.
    public var exitCode: Int32 {
        switch self {
        case .malformed, .invalidAppID, .notAbsolute, .sharedWritable: 64
        case .agentFolderReached, .holdsExecutable: 71
        }
    }

    public var description: String {
        switch self {
        case let .malformed(option, value):
            "\(option) \(value): give APP-ID=PATH, e.g. \(option) org.example.app=/srv/example"
        case let .invalidAppID(option, appID):
            "\(option): '\(TerminalEscape.shown(String(appID.prefix(128))))' is not an app id (as in its manifest: e.g. org.example.app)"
        case let .notAbsolute(option, path):
            "\(option): '\(path)' is not an absolute path"
        case let .sharedWritable(appID, path, other, otherPath):
            "--app-allow-write \(appID)=\(path) is not \(appID)'s own: \(path == otherPath ? "it is" : "it overlaps") \(otherPath), "
                + "which \(other) is given too, so the apps could leave files for each other there. Give each app a folder of its own, "
                + "or pass --allow-shared-writes to share it on purpose"
        case let .agentFolderReached(option, path, agentOption, agentFolder):
            "\(Self.named(option, path)) \(path == agentFolder ? "is" : "overlaps") \(agentOption) \(agentFolder), the agent's own folder: "
                + "an app given it could plant links there that the agent (unconfined) writes through, or reach every app's "
                + "output or data; keep the apps' folders, the log folder and the data root apart (--allow-shared-writes does not change this)"
        case let .holdsExecutable(option, path, what, executable):
            "\(Self.named(option, path)) is or holds \(what) \(executable): an app could replace it, and its code would then run "
                + "as another identity (you, unconfined); give the apps writable folders that hold no program"
        }
    }

    private static func named(_ option: String, _ path: String) -> String {
        option.hasSuffix("=") ? option + path : option + " " + path
    }
}

/// The app ids the launch agent accepts, in launch requests and in its options: the id becomes
/// a file name (its log, its data folder), so it is not empty, holds no '/' and does not start
/// with '.'. (healthd installs only manifest ids, which are narrower: `AppManifest.problems`.)
enum LaunchAppID {
    static func isUsable(_ id: String) -> Bool {
        !id.isEmpty && !id.contains("/") && !id.hasPrefix(".")
    }
}
