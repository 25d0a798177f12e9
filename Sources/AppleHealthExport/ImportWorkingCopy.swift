import Foundation
import Glibc

/// The file an import writes the sanitized export.xml into and parses it from: in a private
/// folder beside the store's default folder (`$XDG_DATA_HOME/openhealth-import`, else
/// `~/.local/share/openhealth-import`, mode 0700), not in `$TMPDIR` — on the file system the
/// user keeps their health data on (often encrypted where /tmp is not, and never a tmpfs that a
/// large export would fill RAM with) — and unlinked the moment it is created, before one byte of
/// the export is written: it lives only as this process's open descriptor, so every way the
/// process ends (return, throw, crash, SIGKILL, OOM kill) frees it, and no name ever points at
/// the export's content. The parser reads it again through `/proc/self/fd`. A process killed in
/// the microseconds between creating and unlinking leaves an empty file named after its pid;
/// the next import removes such files whose process is gone.
final class ImportWorkingCopy {
    let folder: URL
    /// Read-write, positioned where the next write goes.
    let handle: FileHandle
    /// A path that opens the unlinked file afresh (for libxml2's reader), while this object lives.
    var readablePath: String { "/proc/self/fd/\(handle.fileDescriptor)" }

    /// `$XDG_DATA_HOME/openhealth-import`, else `~/.local/share/openhealth-import`: beside the
    /// default store folder (`DefaultPaths.storeDirectory`), on the same file system.
    static var defaultFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent("openhealth-import")
        }
        return URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/share/openhealth-import")
    }

    static let namePrefix = "export-"

    init(in folder: URL) throws(ExportReadError) {
        self.folder = folder
        try Self.preparePrivateFolder(folder)
        Self.removeLeftovers(in: folder)
        let path = folder.appendingPathComponent("\(Self.namePrefix)\(getpid())-\(UUID().uuidString).xml").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .io(path: path, reason: "cannot create the import's working copy (\(String(cString: strerror(errno))))")
        }
        guard unlink(path) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .io(path: path, reason: "cannot unlink the import's working copy (\(reason))")
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Creates `folder` (and its parents) 0700 if missing; refuses a link, a non-folder or one
    /// another user owns, and narrows a looser mode of our own to 0700.
    private static func preparePrivateFolder(_ folder: URL) throws(ExportReadError) {
        let path = folder.path
        do {
            try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .io(path: path, reason: "cannot create the folder for the import's working copy (\(error.localizedDescription))")
        }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .io(path: path, reason: "cannot create the import's working folder (\(String(cString: strerror(errno))))")
        }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw .io(path: path, reason: "cannot inspect the import's working folder (\(String(cString: strerror(errno))))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR, status.st_uid == geteuid() else {
            throw .io(path: path, reason: "the import's working folder is not a folder of this user's (a link, a file or another owner's): remove it")
        }
        if status.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            throw .io(path: path, reason: "cannot make the import's working folder private (\(String(cString: strerror(errno))))")
        }
    }

    /// Removes `export-PID-….xml` files whose process no longer runs (a kill between create and
    /// unlink). A file of a running import (another healthctl) is left alone.
    private static func removeLeftovers(in folder: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(namePrefix) && name.hasSuffix(".xml") {
            let pidText = name.dropFirst(namePrefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(pidText), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                unlink(folder.appendingPathComponent(name).path)
            }
        }
    }
}
