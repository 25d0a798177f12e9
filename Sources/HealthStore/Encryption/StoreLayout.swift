#if canImport(Glibc)
import Glibc
#endif

/// The files of one store directory. Everything the store writes lives here, so
/// "no plaintext on disk" can be checked by reading this one directory.
struct StoreLayout: Sendable {
    let directory: String

    var databasePath: String { directory + "/health.sqlite" }
    /// A rotation writes the re-encrypted copy here, then renames it over the database.
    var rotatingDatabasePath: String { directory + "/health.sqlite.rotating" }
    /// The wrapped data key (and, during a rotation, the wrapped next key).
    var keyEnvelopePath: String { directory + "/store.keys" }
    /// The rotating copy's rollback journal (the copy is written in rollback mode, not WAL).
    var rotatingJournalPath: String { rotatingDatabasePath + "-journal" }
    /// The machine key-encryption key (used when no passcode protects the store).
    var machineKeyPath: String { directory + "/machine.key" }
    /// flock(2)ed by whoever has the store open, so key changes never race an open store.
    var lockPath: String { directory + "/store.lock" }

    /// Makes `directory` absolute (SQLite URIs need it) and, if `create`, creates it
    /// with mode 0700; checks that it can be read and written, that it and its files belong
    /// to this user, and sets their modes to 0700 and 0600 (`PrivateFileModes`).
    init(directory: String, create: Bool) throws(StoreOpenError) {
        var path = directory
        if !path.hasPrefix("/") {
            guard let cwd = getcwd(nil, 0) else {
                throw .directoryUnusable(path: directory, reason: "the current directory is unknown")
            }
            defer { free(cwd) }
            path = String(cString: cwd) + "/" + path
        }
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        self.directory = path

        if create && !StoreFileIO.exists(path) && mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .directoryUnusable(path: path, reason: SystemCallError("mkdir", path: path).reason)
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .directoryUnusable(path: path, reason: SystemCallError("stat", path: path).reason)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .directoryUnusable(path: path, reason: "not a directory")
        }
        guard access(path, R_OK | W_OK | X_OK) == 0 else {
            throw .directoryUnusable(path: path, reason: SystemCallError("access", path: path).reason)
        }
        try PrivateFileModes.enforce(directory: path)
    }

    /// Removes a rotation's copy and its journal if they exist: before a rotation writes a new
    /// copy, and when an open finds a rotation that never reached its rename.
    func removeRotatingCopy() throws(StoreOpenError) {
        do {
            try StoreFileIO.remove(rotatingDatabasePath)
            try StoreFileIO.remove(rotatingJournalPath)
        } catch {
            throw .directoryUnusable(path: directory, reason: error.reason)
        }
    }
}
