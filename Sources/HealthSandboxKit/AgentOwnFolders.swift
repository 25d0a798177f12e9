import Foundation

/// The agent's own folders against what it gives the apps, checked at its start
/// (`health-sandbox agent` exits 71 naming both paths); not waived by `--allow-shared-writes`,
/// which is about apps sharing with each other, not with the agent.
///
/// - The log folder (`--log-dir`) and the data root (`--data-root`) are reached by no folder
///   given to an app (shared or its own, to read or write) — none may be, contain or lie in
///   either — and do not overlap each other. An app that could write the log folder would plant
///   a link or FIFO at its log's name, which the agent, the user's unconfined process, opens
///   (`AgentFolderEntries` refuses those too); one that reaches the data root reaches every
///   app's data folder; one that reads the log folder reads every app's output.
/// - No folder given to an app writable is or holds a tool another identity runs: this program
///   and healthctl and healthd beside it (`ProtectedFolders.localTools`). Other installed apps'
///   executables are known to healthd only: each launch's `health-sandbox run` refuses those.
extension AgentFolderGrants {
    public func checkedAgentFolders(logDirectory: String?, tools: [ProtectedFolders.Executable]) throws(AgentFolderRefusal) {
        let own = [("--log-dir", logDirectory), ("--data-root", dataRoot)].compactMap { option, path in
            path.map { (option: option, path: $0, lineage: PathLineage($0)) }
        }
        if own.count == 2, own[0].lineage.isWithin(own[1].lineage) || own[1].lineage.isWithin(own[0].lineage) {
            throw .agentFolderReached(option: own[0].option, path: own[0].path, agentOption: own[1].option, agentFolder: own[1].path)
        }
        let grants = everyGrant()
        for folder in own {
            for grant in grants {
                let lineage = PathLineage(grant.path)
                if lineage.isWithin(folder.lineage) || folder.lineage.isWithin(lineage) {
                    throw .agentFolderReached(option: grant.option, path: grant.path, agentOption: folder.option, agentFolder: folder.path)
                }
            }
        }
        let protected = ProtectedFolders(healthFolders: [], homes: [], executables: tools)
        for grant in grants where grant.writable {
            if let held = protected.executable(heldBy: PathLineage(grant.path)) {
                throw .holdsExecutable(option: grant.option, path: grant.path, what: held.what, executable: held.path)
            }
        }
    }

    /// Every folder given to an app, named by the option that gave it.
    private func everyGrant() -> [(option: String, path: String, writable: Bool)] {
        var grants = shared.readable.map { (option: "--allow-read", path: $0, writable: false) }
            + shared.writable.map { (option: "--allow-write", path: $0, writable: true) }
        for (appID, folders) in perApp.sorted(by: { $0.key < $1.key }) {
            grants += folders.readable.map { (option: "--app-allow-read \(appID)=", path: $0, writable: false) }
            grants += folders.writable.map { (option: "--app-allow-write \(appID)=", path: $0, writable: true) }
        }
        return grants
    }
}
