import Foundation
import Glibc

/// Where an export is written: a private file or folder beside the destination, renamed onto it
/// only when complete, so the destination is either absent, the old one, or the whole new export —
/// never half of one — and readable by the user alone (files 0600, folders 0700).
struct StagedOutput {
    enum Kind { case file, folder }

    let destination: URL
    let staged: URL
    let kind: Kind
    private var committed = false

    /// Refuses a destination folder that exists (a rename cannot replace a folder with content);
    /// an existing file is replaced atomically.
    init(destination: URL, kind: Kind) throws(HealthCtlError) {
        self.destination = destination.standardizedFileURL
        self.kind = kind
        let folder = self.destination.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .exportFailed(path: destination.path, reason: "the folder \(folder.path) does not exist")
        }
        if FileManager.default.fileExists(atPath: self.destination.path, isDirectory: &isDirectory),
           kind == .folder || isDirectory.boolValue {
            throw .exportFailed(path: destination.path, reason: "it exists already; choose a new name or remove it first")
        }
        staged = folder.appendingPathComponent(".\(self.destination.lastPathComponent).partial-\(UUID().uuidString.prefix(8))")
        if kind == .folder {
            do {
                try FileManager.default.createDirectory(at: staged, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .exportFailed(path: staged.path, reason: "cannot create it (\(error.localizedDescription))")
            }
        }
    }

    /// Creates a new file inside a staged folder (or the staged file itself), mode 0600.
    func createFile(named name: String? = nil) throws(HealthCtlError) -> FileHandle {
        let url = name.map { staged.appendingPathComponent($0) } ?? staged
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .exportFailed(path: url.path, reason: "cannot create it (\(String(cString: strerror(errno))))")
        }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// Makes the export visible under its name.
    mutating func commit() throws(HealthCtlError) {
        guard rename(staged.path, destination.path) == 0 else {
            throw .exportFailed(path: destination.path, reason: "cannot move the finished export into place (\(String(cString: strerror(errno))))")
        }
        committed = true
    }

    /// Removes what was staged (after a failure or an interruption).
    func discard() {
        guard !committed else { return }
        try? FileManager.default.removeItem(at: staged)
    }
}
