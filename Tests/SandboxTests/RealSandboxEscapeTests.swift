import Foundation
import Glibc
import Testing
import TestSupport

/// The escapes of issue 12, tried by an app (escape-probe) inside the real sandbox —
/// `health-sandbox run` against a real healthd: bubblewrap namespaces, then Landlock and
/// seccomp — as root and as an ordinary user. Each attempt has its exact expected errno, or
/// the absence of what it looks for; the unconfined control run of the same program shows
/// each would work without the sandbox.
@Suite(.timeLimit(.minutes(10)), .serialized) struct RealSandboxEscapeTests {
    /// attempt → what the confined app must see. The SECURITY.md threat table cites these names.
    static let confined: [String: String] = [
        // Privileges: no capability in any set, no_new_privs, a seccomp filter.
        "CapInh": "0000000000000000", "CapPrm": "0000000000000000", "CapEff": "0000000000000000",
        "CapBnd": "0000000000000000", "CapAmb": "0000000000000000", "NoNewPrivs": "1", "Seccomp": "2",
        // The store and its key are not in the app's mount namespace at all.
        "open_store": "denied (ENOENT)", "open_key": "denied (ENOENT)", "stat_store_wal": "denied (ENOENT)",
        "inotify_store": "denied (ENOENT)",
        "chmod_store": "denied (ENOENT)", "utimensat_store": "denied (ENOENT)", "setxattr_store": "denied (ENOENT)",
        "chown_store": "denied (ENOENT)", "chmod_key": "denied (ENOENT)", "utimensat_key": "denied (ENOENT)",
        "setxattr_key": "denied (ENOENT)", "chown_key": "denied (ENOENT)",
        // Its own install folder is mounted read-only: metadata cannot change either.
        "chmod_own_file": "denied (EROFS)", "utimensat_own_file": "denied (EROFS)",
        "setxattr_own_file": "denied (EROFS)", "chown_own_file": "denied (EROFS)",
        // healthd's sockets are not there; no network; the host's abstract sockets are another namespace's.
        "connect_app_socket": "denied (ENOENT)", "connect_admin_socket": "denied (ENOENT)",
        "proc_net_unix_app_socket": "absent", "inet_socket": "denied (EAFNOSUPPORT)",
        "inet6_socket": "denied (EAFNOSUPPORT)", "abstract_connect_outside": "denied (ECONNREFUSED)",
        // healthd is in no /proc the app has, and cannot be traced, limited or slowed.
        "proc_healthd": "denied (ENOENT)", "healthd_visible": "no", "kill0_healthd": "denied (ESRCH)",
        // Timing and thread-count side channels on other apps' calls; its command line; its memory.
        "proc_healthd_schedstat": "denied (ENOENT)", "proc_healthd_threads": "denied (ENOENT)",
        "healthd_in_cmdlines": "no", "proc_healthd_mem": "denied (ENOENT)",
        "ptrace_healthd": "denied (EPERM)", "prlimit_healthd": "denied (EPERM)",
        "setpriority_healthd": "denied (EPERM)", "sched_setscheduler_healthd": "denied (EPERM)",
        "sched_setaffinity_healthd": "denied (EPERM)", "ioprio_set_self": "denied (EPERM)",
        // No setuid programs, nothing the app wrote, no memfd code, no execveat.
        "exec_setuid": "denied (EACCES)", "exec_written_file": "denied (EACCES)",
        "memfd_create": "denied (EPERM)", "execveat_own_program": "denied (EPERM)",
    ]

    static var availableUsers: [EscapeUser] { EscapeUser.allCases.filter(\.isAvailable) }

    @Test(arguments: availableUsers)
    func everyEscapeFailsInsideTheSandboxAndWorksOutside(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let outside = try AbstractListener()
        let app = try await world.install("org.test.escape", product: "escape-probe")
        let attempts = ["attempts", "--healthd-pid", String(world.healthdPID), "--store", world.store, "--key", world.key,
                        "--app-socket", world.appSocket, "--admin-socket", world.adminSocket, "--own-file", app.executable,
                        "--writable-dir", app.data, "--outside-abstract", outside.name]

        let confined = try await world.runSandboxed("org.test.escape", data: app.data, [app.executable] + attempts)
        #expect(confined.status == 0, "\(confined)")
        let seen = Self.results(confined)
        for (attempt, expected) in Self.confined.sorted(by: { $0.key < $1.key }) {
            #expect(seen[attempt] == expected, "\(user): \(attempt) inside the sandbox: \(seen[attempt] ?? "missing"), expected \(expected)")
        }
        // An app started by root does not run as uid 0, even inside its namespace.
        if user == .root { #expect(seen["uid"] == "65534", "\(confined)") }

        let control = try await user.run(app.executable, attempts.map { $0 == app.data ? app.data : $0 })
        let unconfined = Self.results(control)
        for (attempt, expected) in Self.confined where expected.hasPrefix("denied") || ["absent", "no"].contains(expected) {
            // healthd makes itself non-dumpable: only root may trace it or open its memory, sandbox or not.
            if ["ptrace_healthd", "proc_healthd_mem"].contains(attempt) && user != .root { continue }
            #expect(unconfined[attempt] == "allowed" || unconfined[attempt] == "present" || unconfined[attempt] == "yes",
                    "\(user): control \(attempt) did not work unconfined (\(unconfined[attempt] ?? "missing")), so the test proves nothing for it")
        }
        #expect(healthdStillServes(world), "healthd was harmed: \(world.root)")
    }

    private func healthdStillServes(_ world: EscapeWorld) -> Bool {
        kill(world.healthdPID, 0) == 0 && FileManager.default.fileExists(atPath: world.appSocket)
    }

    static func results(_ run: ProcessResult) -> [String: String] {
        var results: [String: String] = [:]
        for line in run.lines {
            guard let separator = line.firstRange(of: ": ") else { continue }
            results[String(line[..<separator.lowerBound])] = String(line[separator.upperBound...])
        }
        return results
    }
}
