import Foundation
import Glibc
import HealthIPC
import TestSupport

/// Plays systemd's part for a socket-activated healthd, without a running systemd: holds both
/// listening sockets for the whole test (as a .socket unit does, with its SocketMode=), and
/// for each activation runs the real `systemd-socket-activate` on them, which waits for a
/// connection and then execs healthd with LISTEN_FDS/LISTEN_PID/LISTEN_FDNAMES. Between
/// activations connections queue in the sockets the test holds, as they do in systemd's.
///
/// `supervise` does what systemd does after an exit: it starts the next activation at once,
/// which again waits for a connection — so a connection made at any moment, even while an
/// idle healthd exits, is served. `activate` starts a single one (for starts that must fail).
///
/// Everything it starts is stopped by `stop`, which its deinit calls: a test needs no cleanup
/// of its own on any path.
final class SocketActivator: @unchecked Sendable {
    static let tool = "/usr/bin/systemd-socket-activate"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: tool) }

    let root: String
    let storeDirectory: String
    let socketDirectory: String
    let logPath: String
    let appListener: Int32
    let adminListener: Int32
    private(set) var process: ChildProcess?
    /// Every activation's process, so that a test that failed half-way leaves none behind.
    private var started: [ChildProcess] = []
    private let lock = NSLock()
    private var supervising = false

    var appSocket: String { socketDirectory + "/app.sock" }
    var adminSocket: String { socketDirectory + "/admin.sock" }

    /// `adminMode`/`appMode`: the sockets' file modes (SocketMode=), to show what healthd refuses.
    init(appMode: UInt32 = 0o666, adminMode: UInt32 = 0o600) throws {
        root = NSTemporaryDirectory() + "ohk-e2e-activate-" + UUID().uuidString.prefix(8)
        storeDirectory = root + "/store"
        socketDirectory = root + "/run"
        logPath = root + "/healthd.log"
        try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        appListener = try UnixSocket.listen(path: root + "/run/app.sock", mode: appMode)
        adminListener = try UnixSocket.listen(path: root + "/run/admin.sock", mode: adminMode)
    }

    /// One activation: systemd-socket-activate on the held sockets, healthd once a connection
    /// arrives. `names` is LISTEN_FDNAMES as the socket units would set it.
    /// `environment`: variables for healthd (the tool passes on only those it is given with -E).
    func activate(_ extraArguments: [String] = [], environment: [String: String] = [:],
                  names: String = "app.sock:admin.sock") throws {
        let log = open(logPath, O_WRONLY | O_APPEND | O_CLOEXEC)
        defer { close(log) }
        // The shell exports LISTEN_PID as its own pid and execs, so the tool (same pid) takes
        // the sockets as passed to it, then passes them on to healthd under the given names.
        let setenv = environment.map { "-E \($0.key)=\($0.value)" }.joined(separator: " ")
        let shellArguments = ["-c", "LISTEN_PID=$$ LISTEN_FDS=2 exec \(Self.tool) --fdname=\(names) \(setenv) \"$@\"", "sh",
                              Products.path("healthd"), "--store", storeDirectory, "--socket-dir", socketDirectory,
                              "--log-level", "info"] + extraArguments
        let process = try ChildProcess("/bin/sh", shellArguments, stderr: log,
                                       descriptors: [3: appListener, 4: adminListener])
        self.process = process
        started.append(process)
    }

    var isRunning: Bool { lock.withLock { process?.isRunning ?? false } }

    /// Keeps an activation waiting on the sockets from now until `stop`, as systemd does.
    func supervise(_ extraArguments: [String] = [], environment: [String: String] = [:]) throws {
        try lock.withLock {
            supervising = true
            try activate(extraArguments, environment: environment)
        }
        // Holds the activator weakly: a test that ends without `stop` — a failed #require, a
        // thrown error — drops it, and its deinit then stops every activation. A strong hold
        // kept it (and the thread starting activations) alive past the test, and the
        // activations waiting on its sockets outlived the test process.
        let thread = Thread { [weak self] in
            while self?.keepActivated(extraArguments, environment: environment) == true {
                usleep(50_000)
            }
        }
        thread.start()
    }

    /// One look of the supervisor: starts the next activation once the last one has exited.
    /// False once `stop` was called.
    private func keepActivated(_ extraArguments: [String], environment: [String: String]) -> Bool {
        lock.withLock {
            guard supervising else { return false }
            if process?.isRunning != true { try? activate(extraArguments, environment: environment) }
            return true
        }
    }

    /// How many times healthd was started (systemd-socket-activate logs each exec).
    var healthdStarts: Int { log.components(separatedBy: "Execing ").count - 1 }

    /// How many times healthd exited because it was idle.
    var idleExits: Int { log.components(separatedBy: "reason=idle for").count - 1 }

    /// Waits until healthd exited idle `count` times in all; false after `timeout` seconds.
    func waitForIdleExits(_ count: Int, timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while idleExits < count && Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        return idleExits >= count
    }

    /// Waits for the current healthd to exit by itself; its exit status, or nil if it still
    /// runs after `timeout` seconds.
    func waitForExit(timeout: TimeInterval) async -> Int32? {
        guard let process else { return nil }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        guard !process.isRunning else { return nil }
        return await process.wait(timeout: 1)
    }

    /// `health-sandbox run APP -- e2e-client ARGS…`, to completion.
    func runApp(_ appID: String, _ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRun.run(Products.path("health-sandbox"),
                                 ["run", appID, "--socket", adminSocket, "--", BrokerProcess.clientExecutable] + arguments, timeout: 60)
    }

    /// Connects to the admin socket and leaves at once: what starts healthd, for a test that
    /// expects it to refuse (a client waiting for a reply would wait in the backlog for ever).
    func poke() throws {
        close(try UnixSocket.connect(path: adminSocket))
    }

    /// Whether a connection waits, not yet accepted, on either socket.
    var hasQueuedConnection: Bool {
        var fds = [appListener, adminListener].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        return poll(&fds, 2, 0) > 0
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func healthctl(_ arguments: [String], stdin: String? = nil) async throws -> ProcessResult {
        try await ProcessRun.run(Products.path("healthctl"), arguments + ["--socket", adminSocket], stdin: stdin)
    }

    /// Stops every activation's process: SIGTERM (healthd stops cleanly), then SIGKILL after
    /// 5 s — systemd-socket-activate still waiting for a connection inherits the test's blocked
    /// SIGTERM and would never exit.
    func stop() {
        let started = lock.withLock {
            supervising = false
            return self.started
        }
        for process in started where process.isRunning {
            process.signal(SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            process.signal(SIGKILL)
            process.waitBlocking()
        }
        lock.withLock { process = nil }
    }

    deinit {
        stop()
        close(appListener)
        close(adminListener)
        try? FileManager.default.removeItem(atPath: root)
    }
}
