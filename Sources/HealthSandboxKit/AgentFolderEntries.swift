import Foundation
import Glibc
import HealthModel

/// How the launch agent opens what it keeps for an app (its log `DIR/APP-ID.log`, its data
/// folder `ROOT/APP-ID`): the agent is the user's unconfined process, so a name there that is a
/// link, a FIFO, a hard link or someone else's file must never be written through or waited on.
///
/// Each entry is opened relative to a descriptor of its folder (opened `O_DIRECTORY|O_NOFOLLOW`),
/// itself without following a link (`O_NOFOLLOW`: a link is ELOOP), without blocking
/// (`O_NONBLOCK`: a FIFO does not hold the agent, whose spawner lock every launch and exit
/// waits on), then checked by `fstat` on what was opened. `AgentFolderGrants.checkedAgentFolders`
/// keeps both folders out of every folder an app may write; this is the second wall, for a
/// folder the user shares by other means.
enum AgentFolderEntries {
    /// Why an entry was refused: the path, and what was found there.
    struct Refusal: Error, CustomStringConvertible {
        let path: String
        let problem: String
        var description: String { "refusing \(path): \(problem)" }
    }

    /// `directory/name`, opened for appending (made 0600 if missing): a regular file of this
    /// user with one link. The descriptor is blocking again when returned (the app inherits it).
    static func openLog(in directory: String, name: String) throws(Refusal) -> Int32 {
        let path = directory + "/" + name
        let folder = try openFolder(directory)
        defer { close(folder) }
        let file = openat(folder, name, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw Refusal(path: path, problem: problem(opening: errno)) }
        var status = stat()
        guard fstat(file, &status) == 0 else {
            let failed = errno
            close(file)
            throw Refusal(path: path, problem: "cannot inspect it: \(String(cString: strerror(failed)))")
        }
        if let problem = logProblem(status) {
            close(file)
            throw Refusal(path: path, problem: problem + "; remove it and launch again")
        }
        let flags = fcntl(file, F_GETFL)
        guard flags >= 0, fcntl(file, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            let failed = errno
            close(file)
            throw Refusal(path: path, problem: "cannot make it blocking: \(String(cString: strerror(failed)))")
        }
        return file
    }

    /// `root/name`, made 0700 if missing: a folder (not a link) of this user or, when this process
    /// is root, of an app's own uid (`health-sandbox run` hands it over at the first launch), that
    /// nobody else may write. Returns its path.
    static func dataFolder(in root: String, name: String) throws(Refusal) -> String {
        let path = root + "/" + name
        let parent = try openFolder(root)
        defer { close(parent) }
        guard mkdirat(parent, name, 0o700) == 0 || errno == EEXIST else {
            throw Refusal(path: path, problem: "cannot make it: \(String(cString: strerror(errno)))")
        }
        let folder = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard folder >= 0 else { throw Refusal(path: path, problem: problem(opening: errno)) }
        defer { close(folder) }
        var status = stat()
        guard fstat(folder, &status) == 0 else {
            throw Refusal(path: path, problem: "cannot inspect it: \(String(cString: strerror(errno)))")
        }
        let owner = status.st_uid
        guard owner == geteuid() || (geteuid() == 0 && AppSandboxIDRange.contains(owner)) else {
            throw Refusal(path: path, problem: "it belongs to uid \(owner), not to you or an app's own uid; remove it and launch again")
        }
        guard status.st_mode & 0o022 == 0 else {
            throw Refusal(path: path, problem: "others may write it (mode \(String(status.st_mode & 0o777, radix: 8))); chmod go-w it")
        }
        return path
    }

    /// What is wrong with an opened log file, if anything.
    static func logProblem(_ status: stat) -> String? {
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFIFO: return "it is a FIFO, not a file"
        case S_IFDIR: return "it is a folder, not a file"
        case S_IFSOCK: return "it is a socket, not a file"
        case S_IFCHR, S_IFBLK: return "it is a device, not a file"
        default: return "it is not a regular file"
        }
        guard status.st_uid == geteuid() else { return "it belongs to uid \(status.st_uid), not to you (uid \(geteuid()))" }
        guard status.st_nlink == 1 else { return "it has \(status.st_nlink) names (a hard link to another file?)" }
        return nil
    }

    private static func openFolder(_ path: String) throws(Refusal) -> Int32 {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { throw Refusal(path: path, problem: problem(opening: errno)) }
        return folder
    }

    private static func problem(opening error: Int32) -> String {
        switch error {
        case ELOOP: "it is a link, which is not followed (an app may have made it)"
        case ENOTDIR: "it is not a folder"
        case ENXIO: "it is a FIFO or socket nobody reads, not a file"
        default: String(cString: strerror(error))
        }
    }
}
