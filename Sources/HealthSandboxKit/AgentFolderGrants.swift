import Foundation
import HealthModel

/// The folders `health-sandbox agent` gives the apps it launches, beyond each one's data folder:
/// some to every app (`--allow-read`, `--allow-write`: shared — what one app writes there every
/// other can read, and a folder every app may write is one they can leave files and messages
/// in for each other) and some to one app only (`--app-allow-read APP-ID=PATH`,
/// `--app-allow-write APP-ID=PATH`).
///
/// The check (`checked`, AgentFolderCheck.swift) refuses any folder an app may write that
/// overlaps a folder another identity reaches: another app's, the agent's own (log folder, data
/// root), or the code of the tools and the runtime. Each launch still applies
/// `LaunchPolicy.checked` to what it gets.
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
}

/// Why `health-sandbox agent` refuses its folder options: typed, naming the option, the path
/// and the fix.
public enum AgentFolderRefusal: Error, CustomStringConvertible, Equatable {
    case malformed(option: String, value: String)
    case invalidAppID(option: String, appID: String)
    case notAbsolute(option: String, path: String)
    /// A folder apps may write (`option`: one app's, `writer`, or every app's, nil) overlaps
    /// `otherPath`, which `other` (another app, or every app to read) is given.
    case sharedWritable(option: String, path: String, writer: String?, other: String, otherPath: String)
    /// A folder given to an app (`option`) is, contains or lies in one of the agent's own
    /// (`--log-dir`, `--data-root`), or those two overlap (`checked`).
    case agentFolderReached(option: String, path: String, agentOption: String, agentFolder: String)
    /// A folder given to an app writable is or holds a tool another identity runs, or overlaps
    /// a folder their code is loaded from (`LaunchPolicy.codeFolders`).
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
        case let .sharedWritable(option, path, writer, other, otherPath):
            "\(Self.named(option, path)) is \(writer.map { "not \($0)'s own" } ?? "every app's to write"): "
                + "\(path == otherPath ? "it is" : "it overlaps") \(otherPath), which \(other) is given too, so one app could leave "
                + "files for another there, or replace code another app loads from it (which would then run as that app, with its "
                + "grants). Give each app a folder of its own, keep folders every app writes apart from the ones apps read, "
                + "or pass --allow-shared-writes to share them on purpose"
        case let .agentFolderReached(option, path, agentOption, agentFolder):
            "\(Self.named(option, path)) \(path == agentFolder ? "is" : "overlaps") \(agentOption) \(agentFolder), the agent's own folder: "
                + "an app given it could plant links there that the agent (unconfined) writes through, or reach every app's "
                + "output or data; keep the apps' folders, the log folder and the data root apart (--allow-shared-writes does not change this)"
        case let .holdsExecutable(option, path, what, executable):
            "\(Self.named(option, path)) \(path == executable ? "is" : "overlaps") \(what) \(executable): an app could replace it "
                + "or what it holds, and its code would then run as another identity (you, unconfined); give the apps writable "
                + "folders that hold no program or library and lie in none"
        }
    }

    private static func named(_ option: String, _ path: String) -> String {
        option.hasSuffix("=") ? option + path : option + " " + path
    }
}

/// The app ids the launch agent accepts, in launch requests and in its options: manifest ids
/// (`AppIDRule`, the rule healthd installs by). The id becomes a file name (its log, its data
/// folder) and a key of the agent's own tables (running apps, per-app folders), where Swift's
/// canonical equality must not merge two apps: ASCII, no '/', not starting with '.' or '-'.
enum LaunchAppID {
    static func isUsable(_ id: String) -> Bool {
        AppIDRule.isValid(id)
    }
}
