import Foundation
import Testing
import TestSupport

/// healthd's sockets are normally not in a sandboxed app's mount namespace
/// (RealSandboxEscapeTests: `connect_app_socket`, `connect_admin_socket` → ENOENT), and
/// health-sandbox refuses to show the app the socket folder or one holding it
/// (VisiblePathsEscapeTests). Here the sockets reach the app anyway — hard links to them in a
/// folder the user handed to the app with `--allow-read` — and Landlock does not mediate
/// connecting to a pathname socket: what stops
/// the app from being another app, or the manager, is healthd's admission, which refuses
/// confined (seccomp, no_new_privs) peers on both sockets — confinement is inherited across
/// exec and cannot be dropped. As root the app runs under its own uid outside, which healthd
/// refuses first; as an ordinary user it has healthd's uid and only the confinement check stands.
@Suite(.timeLimit(.minutes(10)), .serialized) struct ReachableSocketFolderTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"

    /// The attacker execs the victim's executable (readable to it) with its own code preloaded,
    /// drops its launch-bound descriptor and dials app.sock by path: identified by /proc/PID/exe,
    /// it would be the victim, whom the user opted in to direct connections.
    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func aSandboxedAppDiallingTheAppSocketIsNeverAnotherApp(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let victim = try await world.install("org.test.victim", product: "e2e-client")
        let attacker = try await world.install("org.test.attacker", product: "escape-probe")
        for app in ["org.test.victim", "org.test.attacker"] {
            let granted = try await world.healthctl(["grant", app, "share", Self.heartRate])
            #expect(granted.status == 0, "\(granted)")
        }
        #expect(try await world.healthctl(["apps", "allow-direct", "org.test.victim"]).status == 0)
        let save = ["save", Self.heartRate, "61", "count/min", "1700000000", "1700000000"]
        let handed = try await Self.handSockets(of: world)
        let inject = [attacker.executable, "exec-victim", "--app-socket", handed + "/app.sock", "--", victim.executable] + save
        let reachable = [handed, (victim.executable as NSString).deletingLastPathComponent]

        let byPath = try await world.runSandboxed("org.test.attacker", data: attacker.data, inject, allowRead: reachable)
        #expect(byPath.okValue == nil && byPath.errorCode != nil, "\(user): served by path from inside the sandbox: \(byPath)")
        if user == .unprivileged {
            #expect(byPath.stdout.contains("confined"), "\(user): \(byPath)")
        }
        // The victim's own launch-bound run is not affected, nor a direct one from outside.
        let own = try await world.runSandboxed("org.test.victim", data: victim.data, [victim.executable] + save,
                                               allowRead: [handed])
        #expect(own.okValue != nil, "\(own)")
        let listing = try await world.healthctl(["samples", "heartRate", "--json"])
        #expect(listing.stdout.split(separator: "\n").filter { $0.contains("\"org.test.victim\"") }.count == 1, "\(listing)")

        // Control, unconfined and as the same user: the same injection is served as the victim
        // (the weaker mode's documented limit), so the refusal above is the sandbox's doing.
        let control = try await user.run(attacker.executable, Array(inject.dropFirst()).map { $0 == handed + "/app.sock" ? world.appSocket : $0 })
        #expect(control.okValue != nil, "control: \(control)")
    }

    /// The app execs the real `healthctl` and `health-sandbox` (the user also handed it their
    /// folder), the very executables healthd trusts on the admin socket, and dials it.
    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func aSandboxedAppThatExecsTheManagerToolsIsNotTheManager(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let app = try await world.install("org.test.impostor", product: "e2e-client")
        let victim = try await world.install("org.test.victim", product: "e2e-client")
        let tools = (Products.path("healthctl") as NSString).deletingLastPathComponent
        let handed = try await Self.handSockets(of: world)
        let admin = handed + "/admin.sock"
        let reachable = [tools, handed]

        // healthctl itself, confined: it may not list apps, nor grant the impostor anything.
        let listing = try await world.runSandboxed("org.test.impostor", data: app.data,
                                                   [Products.path("healthctl"), "apps", "list", "--socket", admin],
                                                   allowRead: reachable)
        #expect(listing.status != 0 && !listing.stdout.contains("org.test.victim"), "\(user): \(listing)")
        let grant = try await world.runSandboxed("org.test.impostor", data: app.data,
                                                 [Products.path("healthctl"), "grant", "org.test.impostor", "read",
                                                  "HKQuantityTypeIdentifierHeartRate", "--socket", admin],
                                                 allowRead: reachable)
        #expect(grant.status != 0, "\(user): \(grant)")
        // health-sandbox re-run from inside to bind a connection to another app: refused before
        // anything is bound (77 refused, or 69 when the socket cannot even be dialled).
        let rebind = try await world.runSandboxed("org.test.impostor", data: app.data,
                                                  [Products.path("health-sandbox"), "run", "org.test.victim", "--socket", admin,
                                                   "--data", victim.data, "--", victim.executable, "status", "HKQuantityTypeIdentifierHeartRate"],
                                                  allowRead: reachable + [(victim.executable as NSString).deletingLastPathComponent])
        #expect([69, 77].contains(rebind.status), "\(user): \(rebind)")
        if user == .unprivileged {
            // Same uid as healthd outside the namespace and a trusted executable: only the
            // confinement check stands, and it is what answers.
            for run in [listing, grant, rebind] {
                #expect(run.stderr.contains("does not accept confined (sandboxed) processes"), "\(user): \(run)")
            }
        }
        let grants = try await world.healthctl(["grants", "org.test.impostor"])
        #expect(grants.status == 0 && !grants.stdout.contains("allowed"), "the impostor was granted something: \(grants)")

        // Control: the same tool, same user, unconfined, is the manager.
        let control = try await world.healthctl(["apps", "list"])
        #expect(control.status == 0 && control.stdout.contains("org.test.victim"), "control: \(control)")
        // no_new_privs alone (no seccomp filter, no namespaces) already marks a confined process.
        let noNewPrivs = try await user.run("/usr/bin/setpriv", ["--no-new-privs", "--", Products.path("healthctl"), "apps", "list",
                                                                 "--socket", world.adminSocket])
        #expect(noNewPrivs.status != 0 && noNewPrivs.stderr.contains("does not accept confined"), "\(user): \(noNewPrivs)")
    }

    /// A folder of the user's (mode 0755) holding hard links to healthd's two sockets: the
    /// sockets themselves, reachable by a path health-sandbox does not know to refuse.
    static func handSockets(of world: EscapeWorld) async throws -> String {
        let handed = world.root + "/handed-sockets"
        for command in [["/bin/mkdir", "-m", "0755", handed], ["/bin/ln", world.appSocket, handed + "/app.sock"],
                        ["/bin/ln", world.adminSocket, handed + "/admin.sock"]] {
            let done = try await world.user.run(command[0], Array(command.dropFirst()))
            guard done.status == 0 else { throw CommandFailed(result: done) }
        }
        return handed
    }
}
