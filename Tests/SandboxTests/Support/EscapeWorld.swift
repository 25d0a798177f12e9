import Foundation
import Glibc
import TestSupport

/// A real healthd, run as `user` on a fresh store, with apps installed from copies of their
/// executables in install folders of that user, and a data folder each: what the escape
/// attempts run against. Stopped and removed by `stop()`.
final class EscapeWorld: @unchecked Sendable {
    let user: EscapeUser
    let root: String
    /// The store folder: `root/store`, or where the world was asked to put it (e.g. in a fake home).
    let store: String
    var socketDirectory: String { root + "/run" }
    var appSocket: String { socketDirectory + "/app.sock" }
    var adminSocket: String { socketDirectory + "/admin.sock" }
    var key: String { store + "/machine.key" }
    private let healthd: ChildProcess

    var healthdPID: Int32 { healthd.pid }

    /// `storeBeneathRoot`: the store folder's path below the world's root folder (made by the user).
    init(user: EscapeUser, storeBeneathRoot: String = "store") async throws {
        self.user = user
        root = NSTemporaryDirectory() + "ohk-escape-" + UUID().uuidString.prefix(8)
        store = root + "/" + storeBeneathRoot
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let (uid, gid) = try await user.ids()
        chown(root, uid, gid)
        chmod(root, 0o755)
        let parent = (store as NSString).deletingLastPathComponent
        if parent != root {
            let made = try await user.run("/bin/mkdir", ["-p", parent])
            guard made.status == 0 else { throw CommandFailed(result: made) }
        }
        let log = open(root + "/healthd.log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        defer { close(log) }
        fchown(log, uid, gid)
        let (program, arguments) = try await user.command(Products.path("healthd"),
                                                          ["--store", store, "--socket-dir", root + "/run"])
        healthd = try ChildProcess(program, arguments, stderr: log)
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: root + "/run/app.sock") {
            guard healthd.isRunning, Date() < deadline else {
                throw BrokerFailed(log: (try? String(contentsOfFile: root + "/healthd.log", encoding: .utf8)) ?? "")
            }
            usleep(20_000)
        }
    }

    func healthctl(_ arguments: [String]) async throws -> ProcessResult {
        try await user.run(Products.path("healthctl"), arguments + ["--socket", adminSocket])
    }

    /// Copies `product` into a fresh install folder of the user and installs it as `appID`.
    /// Returns the copy's path (the app's executable) and the app's data folder. `manifest`
    /// adds fields to the manifest (e.g. `"network": true`).
    func install(_ appID: String, product: String, manifest extra: [String: Any] = [:]) async throws -> (executable: String, data: String) {
        let folder = root + "/apps/" + appID
        let data = root + "/data/" + appID
        for directory in [folder, data] {
            let made = try await user.run("/bin/mkdir", ["-p", directory])
            guard made.status == 0 else { throw CommandFailed(result: made) }
        }
        let executable = folder + "/" + product
        // cp in a child: copying here would hold the file open for writing in this process,
        // and a child spawned meanwhile would keep that descriptor until its exec (ETXTBSY).
        let copied = try await user.run("/bin/cp", [Products.path(product), executable])
        guard copied.status == 0 else { throw CommandFailed(result: copied) }
        let manifest = root + "/\(appID).json"
        var body: [String: Any] = ["id": appID, "displayName": appID, "executable": executable, "version": "1",
                                   "NSHealthShareUsageDescription": "escape test", "NSHealthUpdateUsageDescription": "escape test"]
        body.merge(extra) { $1 }
        try JSONSerialization.data(withJSONObject: body).write(to: URL(fileURLWithPath: manifest))
        chmod(manifest, 0o644)
        let installed = try await healthctl(["apps", "install", manifest])
        guard installed.status == 0 else { throw CommandFailed(result: installed) }
        return (executable, data)
    }

    /// `health-sandbox run APP --data DATA -- COMMAND…` as the user (as root, DATA is given to
    /// the app's own uid first).
    func runSandboxed(_ appID: String, data: String?, _ command: [String], allowRead: [String] = [], allowWrite: [String] = [],
                      environment: [String: String] = [:]) async throws -> ProcessResult {
        try await user.run(Products.path("health-sandbox"),
                           ["run", appID, "--socket", adminSocket] + (data.map { ["--data", $0] } ?? [])
                               + allowRead.flatMap { ["--allow-read", $0] } + allowWrite.flatMap { ["--allow-write", $0] }
                               + ["--"] + command, environment: environment)
    }

    func stop() {
        healthd.signal(SIGTERM)
        healthd.waitBlocking()
        try? FileManager.default.removeItem(atPath: root)
    }
}
