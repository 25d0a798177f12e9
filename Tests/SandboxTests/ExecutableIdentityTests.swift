import Foundation
import Glibc
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Who a direct peer is, decided from the file its process runs — not from the path
/// `/proc/PID/exe` prints. A path names a file only in one mount namespace's view: an ordinary
/// user may make a user and mount namespace of their own (`unshare -Urm`), bind any program of
/// theirs over an installed app's executable path — or over `healthctl`'s — and run it there;
/// `/proc/PID/exe` then reads as that path while the kernel runs the user's own file. healthd
/// compares the file the peer runs (device and inode, read by the peer inspector) with what the
/// path names in healthd's own view (`PeerCredentials.of`, the one place both sockets identify a
/// peer). Each attack runs against a real healthd run as `user`, by an unconfined process of the
/// same user, and is checked against a control served the ordinary way.
@Suite(.timeLimit(.minutes(10)), .serialized) struct ExecutableIdentityTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let save = ["save", heartRate, "62", "count/min", "1700000000", "1700000000"]

    /// `command` run by `shell` in a new mount namespace (and, for an ordinary user, a user
    /// namespace of its own, which is what lets it mount) after `program` is bound over `path`.
    static func underBindMount(_ user: EscapeUser, program: String, over path: String, _ command: [String],
                               environment: [String: String] = [:]) async throws -> ProcessResult {
        let namespaces = user == .root ? ["-m", "--propagation", "private"] : ["-Urm"]
        let script = "mount --bind \"$1\" \"$2\" && shift 2 && exec \"$@\""
        return try await user.run("/usr/bin/unshare", namespaces + ["/bin/sh", "-c", script, "sh", program, path] + command,
                                  environment: environment)
    }

    /// An opted-in app's executable path, with the user's own program bound over it: refused as
    /// unverifiable, not served as the app. Control: the app's real executable, run directly,
    /// is served (direct connections are on for it), and so is the same bind mount of the app's
    /// own executable over itself (the file is the app's: nothing to refuse).
    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func aProgramBoundOverAnAppsPathInAnotherMountNamespaceIsNotTheApp(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let victim = try await world.install("org.test.victim", product: "e2e-client")
        let other = try await world.install("org.test.other", product: "e2e-client")
        #expect(try await world.healthctl(["grant", "org.test.victim", "share", Self.heartRate]).status == 0)
        #expect(try await world.healthctl(["apps", "allow-direct", "org.test.victim"]).status == 0)
        let environment = [LaunchEnvironment.appSocketPathVariable: world.appSocket]

        let direct = try await user.run(victim.executable, Self.save, environment: environment)
        #expect(direct.okValue != nil, "control: the victim's own executable is served directly: \(direct)")
        let sameFile = try await Self.underBindMount(user, program: victim.executable, over: victim.executable,
                                                     [victim.executable] + Self.save, environment: environment)
        #expect(sameFile.okValue != nil, "control: binding the app's own file over itself changes nothing: \(sameFile)")

        // The attacker's program: another copy (its own file), bound over the victim's path.
        let forged = try await Self.underBindMount(user, program: other.executable, over: victim.executable,
                                                   [victim.executable] + Self.save, environment: environment)
        #expect(forged.okValue == nil, "\(user): a program bound over the victim's path was served as the victim: \(forged)")
        #expect(forged.errorCode == HKError.Code.errorAuthorizationDenied.rawValue, "\(forged)")
        #expect(forged.stdout.contains("could not be verified"), "\(forged)")
        let listing = try await world.healthctl(["samples", "heartRate", "--json"])
        #expect(listing.stdout.split(separator: "\n").filter { $0.contains("\"org.test.victim\"") }.count == 2,
                "only the two controls saved as the victim: \(listing)")
    }

    /// The admin socket by the same trick: a copy of `healthctl` (the user's own file) bound over
    /// the real `healthctl` path is not the manager. Control: the real `healthctl` is; the copy run
    /// from its own path is refused by path.
    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func aProgramBoundOverHealthctlInAnotherMountNamespaceIsNotTheManager(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let healthctl = Products.path("healthctl")
        let copy = world.root + "/healthctl-copy"
        let copied = try await user.run("/bin/cp", [healthctl, copy])
        try #require(copied.status == 0, "\(copied)")
        let status = ["status", "--socket", world.adminSocket]

        let real = try await user.run(healthctl, status)
        #expect(real.status == 0, "control: the real healthctl is the manager: \(real)")
        let byPath = try await user.run(copy, status)
        #expect(byPath.status != 0 && byPath.stderr.contains("accepts only the manager tools"), "control: \(byPath)")

        let forged = try await Self.underBindMount(user, program: copy, over: healthctl, [healthctl] + status)
        #expect(forged.status != 0, "\(user): a copy bound over healthctl's path was the manager: \(forged)")
        #expect(forged.stderr.contains("not an unverifiable executable"), "\(forged)")
    }
}
