import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Testing

/// Attacks on app identity (DESIGN.md §3) with real processes: forged ids in messages, a program
/// that is not the manifest's executable, pid reuse between connect and identification, and a
/// sandboxed app reaching for another app's socket.
@Suite(.timeLimit(.minutes(10)), .serialized) struct IdentityAttackTests {
    let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue

    /// Every app-socket message field that can hold an app id, filled with a victim's: the
    /// sample's source (ignored: the broker sets it), a predicate's sources (a filter, never an
    /// identity: the victim's data stays hidden), and the app ids of manager messages (not served
    /// on the app socket; the victim's grants stay as they were).
    @Test func forgedAppIDsInMessagesChangeNothing() async throws {
        let broker = try BrokerProcess()
        let victim = try await broker.installClient("org.test.victim")
        let attacker = try await broker.install(appID: "org.test.attacker", executable: Products.testProcessExecutable)
        try await broker.allowDirect(attacker)
        try await broker.set(victim, "share", heartRate, allowed: true)
        try await broker.set(attacker, "share", heartRate, allowed: true)
        #expect(try await broker.runApp(victim, ["save", heartRate, "60", "count/min", "1700000000", "1700000000"]).okValue != nil)

        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        let forged = SampleRecord(uuid: UUID(), typeIdentifier: heartRate, startDate: Date(timeIntervalSince1970: 1_700_000_100),
                                  endDate: Date(timeIntervalSince1970: 1_700_000_100), value: .quantity(1, unit: "count/s"),
                                  source: SourceRecord(bundleIdentifier: victim, name: "Victim", version: "1"))
        _ = try await client.unary(HealthStoreMethod.save.rawValue, SampleList([forged]).wireBytes())
        var seen: [SampleRecord] = []
        for try await batch in client.serverStream(HealthStoreMethod.querySamples.rawValue,
                                                   SampleQuerySpec(typeIdentifier: heartRate, predicate: .sources([victim])).wireBytes()) {
            seen += try SampleList(wire: batch).samples
        }
        #expect(seen.isEmpty, "a sources predicate naming the victim showed \(seen.count) samples")

        let grantAll = AppGrants(appID: victim, decisions: [GrantDecision(heartRate, .read, .authorized)])
        for method in [HealthManagerMethod.setGrants, .listGrants, .launchBind, .answerRequest, .installApp] {
            await #expect(throws: RPCStatus.self) { _ = try await client.unary(method.rawValue, grantAll.wireBytes()) }
        }
        let grants = try await broker.healthctl(["grants", victim])
        #expect(grants.stdout.contains("Heart Rate  not set  allowed"), "\(grants)")
        let listing = try await broker.healthctl(["samples", "heartRate", "--json"])
        #expect(listing.stdout.split(separator: "\n").filter { $0.contains("\"\(victim)\"") }.count == 1, "\(listing)")
    }

    /// Credential binding trusts the executable's path the kernel reports, so a copy of the
    /// app's binary elsewhere (same bytes, another path) is not the app.
    @Test func aCopyOfTheAppsExecutableAtAnotherPathIsRefused() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.original")
        try await broker.allowDirect(app)
        try await broker.set(app, "share", heartRate, allowed: true)
        let copy = broker.root + "/copy/e2e-client"
        try FileManager.default.createDirectory(atPath: broker.root + "/copy", withIntermediateDirectories: true)
        // Copied by a child process: copying here would hold the copy open for writing in this
        // process, and a child that another test spawns meanwhile inherits that descriptor until
        // its exec, which makes executing the copy fail with ETXTBSY.
        let copied = try await ProcessRun.run("/bin/cp", [BrokerProcess.clientExecutable, copy])
        #expect(copied.status == 0, "\(copied)")
        let environment = [LaunchEnvironment.appSocketPathVariable: broker.appSocket]

        // A save, not a status call: authorizationStatus cannot throw and hides a refusal.
        let save = ["save", heartRate, "60", "count/min", "1700000000", "1700000000"]
        let original = try await ProcessRun.run(BrokerProcess.clientExecutable, save, environment: environment)
        #expect(original.okValue != nil, "control: the installed executable is served: \(original)")
        let impostor = try await ProcessRun.run(copy, save, environment: environment)
        #expect(impostor.errorCode == HKError.Code.errorAuthorizationDenied.rawValue, "\(impostor)")
        #expect(impostor.stdout.contains("no installed app manifest names the executable \(copy)"), "\(impostor)")
    }

    /// PID reuse: a process connects and dies before the broker identifies the connection, and
    /// another program is started under the very same pid (chosen with ns_last_pid). The broker's
    /// identification (`PeerCredentials.of`, what ConnectionRegistry.acceptApp runs first) must
    /// not take the new program for the peer. The control shows the pid really was reused: its
    /// /proc/PID/exe names the new program.
    @Test(.enabled(if: access("/proc/sys/kernel/ns_last_pid", W_OK) == 0, "needs CAP_SYS_ADMIN to choose the next pid (ns_last_pid)"),
          .enabled(if: PeerCredentials.kernelPinsPeers, "needs SO_PEERPIDFD (Linux 6.5): older kernels read a peer by pid alone, SECURITY.md \"Not a boundary (yet)\""))
    func aReusedPidDoesNotInheritTheConnection() async throws {
        let directory = NSTemporaryDirectory() + "ohk-pidreuse-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let listener = try UnixSocket.listen(path: directory + "/app.sock", mode: 0o600)
        defer { close(listener) }

        // The connecting process: e2e-client dials the socket and waits for a reply that never
        // comes (nothing accepts), until it is killed.
        let connector = try ChildProcess(BrokerProcess.clientExecutable, ["status", heartRate],
                                         environment: [LaunchEnvironment.appSocketPathVariable: directory + "/app.sock"])
        var pending = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        try #require(poll(&pending, 1, 30_000) == 1, "the connector never connected")
        connector.signal(SIGKILL)
        await connector.wait()

        let sleeper = try #require(try await Self.sleeper(reusing: connector.pid),
                                   "could not start a process under the reused pid \(connector.pid)")
        defer { sleeper.signal(SIGKILL) }
        // A test child starts as `setpriv --pdeathsig KILL` (ChildProcess), which then executes
        // sleep: read the executable once it has (loaded full runs read setpriv's, session 23).
        var reusedExecutable = ""
        for _ in 0..<200 {
            reusedExecutable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(connector.pid)/exe")) ?? ""
            if reusedExecutable.hasSuffix("sleep") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(reusedExecutable.hasSuffix("sleep"), "control: pid \(connector.pid) now runs \(reusedExecutable)")

        let accepted = try UnixSocket.accept(listener)
        defer { close(accepted) }
        let peer = try PeerCredentials.of(accepted)
        #expect(peer.pid == connector.pid)
        #expect(peer.executablePath == nil && peer.executableFile == nil, "the dead connector's connection was taken for \(peer.executablePath ?? "")")
    }

    /// `/bin/sleep` started under `pid`, which a process that just died held: `ns_last_pid` set to
    /// the pid before it (needs CAP_SYS_ADMIN). Other processes may fork in between; retried, nil
    /// after 50 tries.
    static func sleeper(reusing pid: pid_t) async throws -> ChildProcess? {
        for _ in 0..<50 {
            // Written on ChildProcess's starting thread, which has its own pid by then.
            let candidate = try ChildProcess("/bin/sleep", ["30"]) {
                try? "\(pid - 1)".write(toFile: "/proc/sys/kernel/ns_last_pid", atomically: false, encoding: .utf8)
            }
            if candidate.pid == pid { return candidate }
            candidate.signal(SIGKILL)
            await candidate.wait()
        }
        return nil
    }

    /// The admin socket's confinement check under pid reuse: a confined process (no_new_privs,
    /// as every sandboxed app and whatever it execs) connects, is identified, and dies; an
    /// unconfined program takes its pid. What the broker knows of the peer must stay "confined":
    /// read again by pid at decision time (as ManagerPeerPolicy once did), it would describe the
    /// newcomer and admit the connection as the manager's. The control shows the newcomer really
    /// holds the pid and is unconfined.
    @Test(.enabled(if: access("/proc/sys/kernel/ns_last_pid", W_OK) == 0, "needs CAP_SYS_ADMIN to choose the next pid (ns_last_pid)"),
          .enabled(if: PeerCredentials.kernelPinsPeers, "needs SO_PEERPIDFD (Linux 6.5): older kernels read a peer by pid alone, SECURITY.md \"Not a boundary (yet)\""))
    func aReusedPidDoesNotMakeAConfinedPeerUnconfined() async throws {
        let directory = NSTemporaryDirectory() + "ohk-confreuse-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let listener = try UnixSocket.listen(path: directory + "/admin.sock", mode: 0o600)
        defer { close(listener) }

        let connector = try ChildProcess("/usr/bin/setpriv", ["--no-new-privs", "--", BrokerProcess.clientExecutable, "status", heartRate],
                                         environment: [LaunchEnvironment.appSocketPathVariable: directory + "/admin.sock"])
        var pending = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        try #require(poll(&pending, 1, 30_000) == 1, "the connector never connected")
        let accepted = try UnixSocket.accept(listener)
        defer { close(accepted) }
        let peer = try PeerCredentials.of(accepted)
        #expect(peer.runs(BrokerProcess.clientExecutable), "control: identified while alive")
        #expect(peer.confined, "control: a no_new_privs process is confined")
        connector.signal(SIGKILL)
        await connector.wait()

        let sleeper = try #require(try await Self.sleeper(reusing: connector.pid),
                                   "could not start a process under the reused pid \(connector.pid)")
        defer { sleeper.signal(SIGKILL) }
        let status = try String(contentsOfFile: "/proc/\(connector.pid)/status", encoding: .utf8)
        #expect(status.contains("NoNewPrivs:\t0") && status.contains("Seccomp:\t0"),
                "control: pid \(connector.pid) now runs an unconfined program")

        #expect(peer.confined, "the dead peer's connection was taken for the unconfined program now holding pid \(connector.pid)")
    }

    /// A sandboxed app reaching for another app's broker socket: through /proc/PID/fd, through
    /// pidfd_getfd, through ptrace. Every way fails confined; the unconfined control shows which
    /// would work without health-sandbox.
    @Test func aSandboxedAppCannotTakeAnotherAppsSocket() async throws {
        let broker = try BrokerProcess()
        let victim = try await broker.installClient("org.test.holder")
        let thief = try await broker.install(appID: "org.test.thief", executable: Products.path("socket-thief"))
        // The victim waits inside requestAuthorization, holding its bound socket, until answered.
        let holder = try ChildProcess(Products.path("health-sandbox"),
                                      ["run", victim, "--socket", broker.adminSocket, "--", BrokerProcess.clientExecutable, "request", "--read", heartRate])
        defer { holder.signal(SIGKILL) }
        let pending = try await broker.healthctl(["requests", "--wait", "--timeout", "30"])
        try #require(pending.stdout.contains(victim), "\(pending)")
        // health-sandbox exec'd bubblewrap, which started the app in a pid namespace of its own:
        // the app is the holder's descendant running e2e-client. The socket's number is in its environment.
        let victimPID = try #require(Self.descendant(of: holder.pid, running: BrokerProcess.clientExecutable),
                                     "no e2e-client below health-sandbox (pid \(holder.pid))")
        let environment = try String(contentsOfFile: "/proc/\(victimPID)/environ", encoding: .utf8).split(separator: "\0")
        let variable = LaunchEnvironment.socketDescriptorVariable + "="
        let descriptor = try #require(environment.first { $0.hasPrefix(variable) }?.dropFirst(variable.count))

        let confined = try await ProcessRun.run(Products.path("health-sandbox"),
                                                ["run", thief, "--socket", broker.adminSocket, "--", Products.path("socket-thief"), "\(victimPID)", String(descriptor)])
        #expect(confined.status == 0, "\(confined)")
        for attempt in ["proc_fd_open", "pidfd_getfd", "ptrace_seize"] {
            let line = confined.lines.first { $0.hasPrefix(attempt + ":") }
            #expect(line != nil && line != "\(attempt): ok", "confined \(attempt) succeeded: \(confined)")
        }
        let unconfined = try await ProcessRun.run(Products.path("socket-thief"), ["\(victimPID)", String(descriptor)])
        #expect(unconfined.lines.contains("pidfd_getfd: ok") || getuid() != 0,
                "control: as root, pidfd_getfd takes the socket without the sandbox: \(unconfined)")
        #expect(!unconfined.lines.contains("proc_fd_open: ok"), "a socket cannot be opened through /proc even unconfined: \(unconfined)")
    }

    /// The first process below `ancestor` (by parent pids in this pid namespace) whose
    /// executable is `executable`.
    static func descendant(of ancestor: Int32, running executable: String) -> Int32? {
        var parents: [Int32: Int32] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "comm)": state, then the parent pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { parents[pid] = parent }
        }
        for (pid, _) in parents.sorted(by: { $0.key < $1.key }) {
            var current = pid
            while let parent = parents[current], parent > 1, parent != ancestor { current = parent }
            guard parents[current] == ancestor || current == ancestor else { continue }
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == executable { return pid }
        }
        return nil
    }
}
