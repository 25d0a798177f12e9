import Foundation
import Synchronization
import Glibc
import Testing
import TestSupport

/// Identifying a new connection never waits on a path the peer chose (session 17 red team,
/// finding 6). The peer: a process of the user's own, in a mount namespace of its own, runs a
/// program from a folder it bound over a FUSE mount that never answers (`hung-fuse`) — so
/// `/proc/PID/exe` names a path that, in healthd's view, lies on that mount. healthd must not
/// `stat` such a path on its accept thread: the peer is refused (no installed app names it), and
/// an ordinary connection made meanwhile is identified within a bound.
///
/// What it does not show: a peer whose executable is itself *served* by such a mount (the peer
/// inspector's own stat); `hung-fuse` serves no files, so nothing can be run from it. The
/// inspector reads device and inode with `AT_STATX_DONT_SYNC`, which FUSE answers from the
/// kernel's cache without asking its server (SECURITY.md, identity).
@Suite(.timeLimit(.minutes(10)), .serialized,
       .enabled(if: getuid() == 0 && access("/dev/fuse", R_OK | W_OK) == 0, "needs root and /dev/fuse to mount a FUSE file system"))
struct PeerIdentificationStallTests {
    static let stepCount = "HKQuantityTypeIdentifierStepCount"
    /// How long the ordinary connection may take to be answered while the stalling peer waits:
    /// about 1 s alone, 12.6 s once with 112 suites and a release build sharing two cores. Before
    /// the fix it was never answered while the mount hung (the run's deadline, below, is longer).
    static let bound: TimeInterval = 20

    @Test func aPeerRunningFromBehindAHungMountDoesNotStallOthers() async throws {
        let broker = try BrokerProcess()
        let mountPoint = broker.root + "/hung"
        mkdir(mountPoint, 0o755)
        let fuse = try HungMount(at: mountPoint)
        defer { fuse.remove() }

        // The stalling peer: Products' folder bound over the hung mount in its own namespace, and
        // e2e-client run from there, dialling the app socket by path.
        let script = "mount --bind \"$1\" \"$2\" && shift 2 && exec \"$@\""
        let environment = ["OPENHEALTH_APP_SOCKET": broker.appSocket]
        async let stalling = ProcessRun.run("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                                                                  Products.directory, mountPoint, mountPoint + "/e2e-client", "query", Self.stepCount],
                                            environment: environment, timeout: 60)
        try await Task.sleep(for: .seconds(1))

        // Meanwhile an ordinary peer, run from where it lies: answered (refused: not installed) within the bound.
        try await Self.expectOrdinaryPeerAnswered(environment)

        let stalled = try await stalling
        #expect(stalled.stdout.contains("no installed app manifest names the executable \(mountPoint)/e2e-client"), "\(stalled)")
        #expect(fuse.isRunning, "control: the mount was up (and unanswering) all along")
    }
}

extension PeerIdentificationStallTests {
    /// An installed app's executable on a mount that stops answering holds no one else's
    /// connection (s19 availability review, finding 6). The user installed an app (allowed to
    /// connect directly) whose executable lies in a folder that a FUSE mount which never answers
    /// then covers. A process of the user's own, in a mount namespace of its own, binds Products'
    /// folder over that path and runs e2e-client from it: `/proc/PID/exe` names the installed
    /// path, so healthd looks that path up to check it is the file the peer runs — in healthd's
    /// view, on the hung mount. That lookup ran on the app socket's one accept thread, which it
    /// held until the mount answered; now it runs on a connection-admission worker, bounded by
    /// `ExecutableLookups.timeout` (5 s): an ordinary connection made meanwhile is answered within
    /// the bound, and the stalled peer is refused naming its file system.
    @Test func anInstalledExecutableOnAHungMountDoesNotStallOthers() async throws {
        let broker = try BrokerProcess()
        let folder = broker.root + "/installed"
        mkdir(folder, 0o755)
        let executable = folder + "/e2e-client"
        try FileManager.default.copyItem(atPath: BrokerProcess.clientExecutable, toPath: executable)
        let app = "org.test.hung-executable"
        _ = try await broker.install(appID: app, executable: executable)
        try await broker.allowDirect(app)
        let fuse = try HungMount(at: folder)
        // Removed after 50 s at the latest, so that a healthd whose accept thread waits on the
        // mount (before the fix) lets the test end: its peers are answered once the mount fails.
        let removal = fuse.removal(atTheLatestAfter: .seconds(50))
        defer { removal.now() }

        // The peer connects twice from the same namespace: the second time once the first lookup
        // is past its time, which it shares — refused without waiting another 5 s (one blocked
        // thread however often it connects). (A new bind onto the hung folder would wait for the
        // folder's lock, which the blocked lookup holds.)
        let script = "mount --bind \"$1\" \"$2\" && shift 2 && \"$@\"; sleep 1; s=$(date +%s%N); \"$@\"; "
            + "echo \"second took $(( ($(date +%s%N) - s) / 1000000 )) ms\""
        let environment = ["OPENHEALTH_APP_SOCKET": broker.appSocket]
        async let stalling = ProcessRun.run("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                                                                  Products.directory, folder, executable, "query", Self.stepCount],
                                            environment: environment, timeout: 60)
        try await Task.sleep(for: .seconds(1))

        try await Self.expectOrdinaryPeerAnswered(environment)

        let stalled = try await stalling
        let refusals = stalled.stdout.components(separatedBy: "could not look up the executable \(executable)").count - 1
        let second = stalled.stdout.split(separator: "\n").first { $0.hasPrefix("second took ") }
            .flatMap { Int($0.split(separator: " ")[2]) }
        #expect(refusals == 2, "\(stalled)")
        // Not a speed check: under 5 s means it did not wait for a lookup of its own.
        #expect((second ?? .max) < 5_000, "the second connection of the hung path waited \(second ?? -1) ms\n\(stalled)")
        #expect(fuse.isRunning, "control: the mount was up (and unanswering) all along")
        let after = try await ProcessRun.run(BrokerProcess.clientExecutable, ["query", Self.stepCount],
                                             environment: environment, timeout: 40)
        #expect(after.stdout.contains("no installed app manifest names the executable"), "\(after)")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }
}

/// `hung-fuse` mounted at a folder; `remove` kills it (which aborts every waiting call) and
/// detaches the mount.
struct HungMount: Sendable {
    let path: String
    private let server: ChildProcess

    init(at path: String) throws {
        self.path = path
        let output = path + ".out"
        let fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw HungMountFailed(detail: "cannot create \(output)") }
        defer { close(fd) }
        server = try ChildProcess(Products.path("hung-fuse"), [path], stdout: fd, stderr: fd)
        let deadline = Date().addingTimeInterval(10)
        while !((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("mounted") {
            guard server.isRunning, Date() < deadline else {
                throw HungMountFailed(detail: "hung-fuse did not mount: " + ((try? String(contentsOfFile: output, encoding: .utf8)) ?? ""))
            }
            usleep(20_000)
        }
    }

    var isRunning: Bool { server.isRunning }

    func remove() {
        server.signal(SIGKILL)
        server.waitBlocking()
        umount2(path, Int32(MNT_DETACH))
    }

    /// Removes the mount once: at `deadline`, or earlier when the test calls `now()`.
    func removal(atTheLatestAfter deadline: Duration) -> Removal { Removal(self, after: deadline) }

    final class Removal: Sendable {
        private let once: Once
        private let timer: Task<Void, Never>

        fileprivate init(_ mount: HungMount, after deadline: Duration) {
            let once = Once(mount)
            self.once = once
            timer = Task.detached {
                try? await Task.sleep(for: deadline)
                if !Task.isCancelled { once.remove() }
            }
        }

        func now() {
            timer.cancel()
            once.remove()
        }

        private final class Once: Sendable {
            private let done = Mutex(false)
            private let mount: HungMount

            init(_ mount: HungMount) { self.mount = mount }

            func remove() {
                if done.withLock({ was in defer { was = true }; return !was }) { mount.remove() }
            }
        }
    }
}

struct HungMountFailed: Error, CustomStringConvertible {
    let detail: String
    var description: String { detail }
}

extension PeerIdentificationStallTests {
    /// An ordinary peer, run from where it lies, is answered (refused: not installed) within the
    /// bound while the stalling peer's identification hangs.
    static func expectOrdinaryPeerAnswered(_ environment: [String: String]) async throws {
        let started = Date()
        let ordinary = try await ProcessRun.run(BrokerProcess.clientExecutable, ["query", stepCount],
                                                environment: environment, timeout: 40)
        let waited = Date().timeIntervalSince(started)
        #expect(ordinary.stdout.contains("no installed app manifest names the executable \(BrokerProcess.clientExecutable)"), "\(ordinary)")
        #expect(waited < bound, "the ordinary peer waited \(waited) s for healthd to identify it\n\(ordinary)")
    }
}

extension PeerIdentificationStallTests {
    /// A manager tool's path on a hung mount holds no one else's `healthctl` (s19 availability
    /// review, finding 6, its admin-socket half). healthd trusts a second healthctl
    /// (`--trust-manager`) in a folder that a FUSE mount which never answers then covers; a process
    /// of the user's own binds Products' folder over that path in a namespace of its own and runs
    /// healthctl from it: `/proc/PID/exe` names the trusted path, so healthd looks it up — on the
    /// hung mount. That lookup ran on the admin socket's accept thread, which it held until the
    /// mount answered; now it runs on a connection-admission worker (`ConnectionAdmission`, the
    /// app socket's rule), bounded by `ExecutableLookups.timeout`: the ordinary healthctl run
    /// meanwhile gets its answer, and the stalled peer is refused naming its file system.
    @Test func aManagerToolOnAHungMountDoesNotStallHealthctl() async throws {
        let tools = NSTemporaryDirectory() + "ohk-hung-tool-" + UUID().uuidString.prefix(8)
        mkdir(tools, 0o755)
        defer { try? FileManager.default.removeItem(atPath: tools) }
        let trusted = tools + "/healthctl"
        try FileManager.default.copyItem(atPath: Products.path("healthctl"), toPath: trusted)
        let broker = try BrokerProcess(extraArguments: ["--trust-manager", trusted])
        let control = try await broker.healthctl(["status"])
        try #require(control.status == 0, "control: healthctl answered before the mount: \(control)")
        let fuse = try HungMount(at: tools)
        // Removed after 50 s at the latest, so that a healthd whose accept thread waits on the
        // mount (before the fix) lets the test end: its peers are answered once the mount fails.
        let removal = fuse.removal(atTheLatestAfter: .seconds(50))
        defer { removal.now() }

        let script = "mount --bind \"$1\" \"$2\" && shift 2 && exec \"$@\""
        async let stalling = ProcessRun.run("/usr/bin/unshare", ["-m", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                                                                  Products.directory, tools, trusted, "status", "--socket", broker.adminSocket],
                                            environment: ["XDG_STATE_HOME": broker.root + "/state"], timeout: 60)
        try await Task.sleep(for: .seconds(1))

        let started = Date()
        let ordinary = try await broker.healthctl(["status"])
        let waited = Date().timeIntervalSince(started)
        #expect(ordinary.status == 0 && ordinary.stdout.contains("Connected apps:"), "\(ordinary)")
        #expect(waited < Self.bound, "healthctl waited \(waited) s for healthd to identify it\n\(ordinary)")

        let stalled = try await stalling
        #expect((stalled.stdout + stalled.stderr).contains("could not look up the manager tool \(trusted)"), "\(stalled)")
        #expect(fuse.isRunning, "control: the mount was up (and unanswering) all along")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }
}
