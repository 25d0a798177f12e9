import Foundation
import Glibc
import Testing
import TestSupport

/// healthd's own files (issue 12): folders 0700 and files 0600 at every start, those that
/// already existed with wider modes included, and a store folder of another user refused.
@Suite(.timeLimit(.minutes(10)), .serialized) struct BrokerFileModeTests {
    @Test func wideModesLeftFromBeforeAreNarrowedAtStart() async throws {
        let root = try Self.temporaryRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await Self.startAndStop(root: root)
        // What an app (before namespaces) or an older healthd could leave behind.
        let widened = [(root + "/store", 0o755), (root + "/run", 0o755), (root + "/store/machine.key", 0o644),
                       (root + "/store/store.keys", 0o644), (root + "/store/health.sqlite", 0o644)]
        for (path, mode) in widened { try #require(chmod(path, mode_t(mode)) == 0, "chmod \(path)") }

        try await Self.startAndStop(root: root)
        for (path, _) in widened {
            let expected: mode_t = path.hasSuffix("/store") || path.hasSuffix("/run") ? 0o700 : 0o600
            #expect(Self.mode(path) == expected, "\(path) has mode \(String(Self.mode(path), radix: 8))")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: root + "/store")
        // Files 0600; `tmp`, SQLite's temporary files' folder (SQLITE_TMPDIR), 0700.
        for file in files {
            let expected: mode_t = file == "tmp" ? 0o700 : 0o600
            #expect(Self.mode(root + "/store/" + file) == expected, "\(file) has mode \(String(Self.mode(root + "/store/" + file), radix: 8))")
        }
    }

    /// A link in the store folder is refused, never followed: narrowing modes through it would
    /// change a file elsewhere (as root, any file of the system).
    @Test func aLinkInTheStoreFolderIsRefusedNotFollowed() async throws {
        let root = try Self.temporaryRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await Self.startAndStop(root: root)
        let elsewhere = root + "/elsewhere.txt"
        try Data("not healthd's\n".utf8).write(to: URL(fileURLWithPath: elsewhere))
        chmod(elsewhere, 0o644)
        try #require(symlink(elsewhere, root + "/store/planted") == 0)
        let result = try await ProcessRun.run(Products.path("healthd"), ["--store", root + "/store", "--socket-dir", root + "/run"],
                                              timeout: 30)
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains("planted") && result.stderr.contains("symbolic link"), "\(result)")
        #expect(Self.mode(elsewhere) == 0o644, "the link was followed")
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give the folder to another user"))
    func aStoreFolderOfAnotherUserIsRefused() async throws {
        let root = try Self.temporaryRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (uid, gid) = try await EscapeUser.unprivileged.ids()
        try FileManager.default.createDirectory(atPath: root + "/store", withIntermediateDirectories: true)
        chmod(root + "/store", 0o700)
        try #require(chown(root + "/store", uid, gid) == 0)
        let result = try await ProcessRun.run(Products.path("healthd"), ["--store", root + "/store", "--socket-dir", root + "/run"],
                                              timeout: 30)
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains("belongs to uid \(uid), not to healthd's user (uid 0)"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: root + "/store/machine.key"), "healthd wrote a key into another user's folder")
    }

    static func temporaryRoot() throws -> String {
        let root = NSTemporaryDirectory() + "ohk-modes-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return root
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    /// Starts healthd on `root`, waits until it serves, stops it.
    static func startAndStop(root: String) async throws {
        let healthd = try ChildProcess(Products.path("healthd"), ["--store", root + "/store", "--socket-dir", root + "/run"])
        defer { healthd.signal(SIGTERM); healthd.waitBlocking() }
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: root + "/run/admin.sock") {
            guard healthd.isRunning, Date() < deadline else { throw BrokerFailed(log: "healthd did not start on \(root)") }
            usleep(20_000)
        }
    }
}
