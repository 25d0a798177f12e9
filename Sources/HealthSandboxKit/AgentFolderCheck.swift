import Foundation

/// The one rule for the folders `health-sandbox agent` is given, checked at its start before it
/// connects anywhere (exit 64 or 71 naming both paths and the fix): **no folder an app may write
/// overlaps a folder another identity reaches** — is, contains or lies in it, links and
/// bind-mounted aliases counted (`PathLineage`). Each launch's `health-sandbox run` still applies
/// `LaunchPolicy.checked` to what it gets.
///
/// The identities, and what a writer could do to each:
/// - another app: a folder another app is given to read is one it reads and runs code from (its
///   libraries: the writer's code would run as that app, with its grants); one it writes is one
///   they leave files for each other in. The writer is one app (`--app-allow-write`) or every
///   app (`--allow-write`); the other folder is one app's (`--app-allow-*`) or every app's to read
///   (`--allow-read`). Folders every app may write (`--allow-write`) may overlap each other: they
///   are every app's already. Waived by `--allow-shared-writes` (exit 64).
/// - the agent: its log folder (`--log-dir`) and the data root (`--data-root`) are reached by no
///   folder given to an app, to read or write, and do not overlap each other. An app that could
///   write the log folder would plant a link or FIFO at its log's name, which the agent, the
///   user's unconfined process, opens (`AgentFolderEntries` refuses those too); one that reaches
///   the data root reaches every app's data folder; one that reads the log folder reads every
///   app's output. Not waived (exit 71).
/// - the user and the tools: no writable folder is or holds a tool another identity runs (this
///   program, healthctl and healthd beside it: `ProtectedFolders.localTools`), nor overlaps a
///   folder their code is loaded from (the system library folders and this program's runtime
///   libraries, `LaunchPolicy.codeFolders`: an app that renamed such a folder's parent could
///   plant a library healthctl then loads, unconfined). Not waived (exit 71). Other installed
///   apps' executables are known to healthd only: each launch's `health-sandbox run` refuses those.
///
/// Before session 20 the app-to-app part compared only folders given to one app writable; a
/// folder every app may write (`--allow-write S`) holding one app's library folder
/// (`--app-allow-read B=S/lib`) was accepted, and any app could replace B's code.
extension AgentFolderGrants {
    /// Refuses the first folder that breaks the rule (see above), agent's and tools' first.
    public func checked(allowSharedWrites: Bool, logDirectory: String?, tools: [ProtectedFolders.Executable],
                        codeFolders: [ProtectedFolders.Folder] = LaunchPolicy.codeFolders()) throws(AgentFolderRefusal) {
        let grants = everyGrant()
        try checkAgentFolders(logDirectory: logDirectory, grants: grants)
        try checkCode(grants: grants, tools: tools, codeFolders: codeFolders)
        guard !allowSharedWrites else { return }
        for (index, grant) in grants.enumerated() {
            for other in grants[(index + 1)...] where grant.writable || other.writable {
                let overlap = grant.lineage.isWithin(other.lineage) || other.lineage.isWithin(grant.lineage)
                guard overlap, !grant.holder.mayShareWith(other.holder, bothWritable: grant.writable && other.writable) else { continue }
                let (writer, reached) = grant.writable ? (grant, other) : (other, grant)
                throw .sharedWritable(option: writer.option, path: writer.path, writer: writer.holder.appID,
                                      other: reached.who, otherPath: reached.path)
            }
        }
    }

    /// A folder given to apps: by which option, to whom, writable or not.
    struct Grant {
        enum Holder: Equatable {
            case everyApp
            case app(String)

            var appID: String? {
                if case let .app(id) = self { id } else { nil }
            }

            /// Whether folders of these two holders may overlap: one app's own folders, and folders
            /// every app may write (they are every app's already). A folder every app may read
            /// inside one every app may write may not: what one app writes there, the others run.
            func mayShareWith(_ other: Holder, bothWritable: Bool) -> Bool {
                switch (self, other) {
                case let (.app(one), .app(two)): one == two
                case (.everyApp, .everyApp): bothWritable
                default: false
                }
            }
        }

        let option: String
        let path: String
        let holder: Holder
        let writable: Bool
        let lineage: PathLineage

        /// Who is given it, for a refusal.
        var who: String {
            switch holder {
            case .everyApp: "every app (\(writable ? "--allow-write" : "--allow-read"))"
            case let .app(id): "\(id) (\(writable ? "--app-allow-write" : "--app-allow-read"))"
            }
        }
    }

    /// The log folder and the data root: reached by no grant, and apart from each other.
    private func checkAgentFolders(logDirectory: String?, grants: [Grant]) throws(AgentFolderRefusal) {
        let own = [("--log-dir", logDirectory), ("--data-root", dataRoot)].compactMap { option, path in
            path.map { (option: option, path: $0, lineage: PathLineage($0)) }
        }
        if own.count == 2, own[0].lineage.isWithin(own[1].lineage) || own[1].lineage.isWithin(own[0].lineage) {
            throw .agentFolderReached(option: own[0].option, path: own[0].path, agentOption: own[1].option, agentFolder: own[1].path)
        }
        for folder in own {
            for grant in grants where grant.lineage.isWithin(folder.lineage) || folder.lineage.isWithin(grant.lineage) {
                throw .agentFolderReached(option: grant.option, path: grant.path, agentOption: folder.option, agentFolder: folder.path)
            }
        }
    }

    /// No writable grant is or holds a tool, or overlaps a folder code is loaded from.
    private func checkCode(grants: [Grant], tools: [ProtectedFolders.Executable],
                           codeFolders: [ProtectedFolders.Folder]) throws(AgentFolderRefusal) {
        let protected = ProtectedFolders(healthFolders: [], homes: [], executables: tools)
        let code = codeFolders.map { (folder: $0, lineage: PathLineage($0.path)) }
        for grant in grants where grant.writable {
            if let held = protected.executable(heldBy: grant.lineage) {
                throw .holdsExecutable(option: grant.option, path: grant.path, what: held.what, executable: held.path)
            }
            for (folder, lineage) in code where lineage.isWithin(grant.lineage) || grant.lineage.isWithin(lineage) {
                throw .holdsExecutable(option: grant.option, path: grant.path, what: folder.what, executable: folder.path)
            }
        }
    }

    /// Every folder given to an app, named by the option that gave it.
    private func everyGrant() -> [Grant] {
        var grants = shared.readable.map { Grant(option: "--allow-read", path: $0, holder: .everyApp, writable: false, lineage: PathLineage($0)) }
            + shared.writable.map { Grant(option: "--allow-write", path: $0, holder: .everyApp, writable: true, lineage: PathLineage($0)) }
        for (appID, folders) in perApp.sorted(by: { $0.key < $1.key }) {
            grants += folders.readable.map {
                Grant(option: "--app-allow-read \(appID)=", path: $0, holder: .app(appID), writable: false, lineage: PathLineage($0))
            }
            grants += folders.writable.map {
                Grant(option: "--app-allow-write \(appID)=", path: $0, holder: .app(appID), writable: true, lineage: PathLineage($0))
            }
        }
        return grants
    }
}
