import Foundation
import Testing
import TestSupport

/// Apps are never run without Landlock unless the person launching them says so (docs audit,
/// session 16: `--landlock-abi` defaulted to 0, "best effort", so on a kernel without Landlock
/// `health-sandbox` ran apps with no file confinement inside their namespaces, where they may
/// execute what they wrote — while SECURITY.md listed Landlock among every app's walls).
///
/// A kernel without Landlock is modelled by an LD_PRELOAD shim (Tests/NoLandlockShim) that
/// makes `landlock_create_ruleset` fail with EOPNOTSUPP, as on a kernel booted without
/// `landlock` in `lsm=`. The confining step (`health-sandbox confine`, which `run` and the agent
/// run inside bubblewrap with their own `--landlock-abi`) runs directly, keeping descriptor 3
/// as the app's connection.
@Suite(.timeLimit(.minutes(10)), .serialized) struct LandlockRequiredTests {
    static let launcher = Products.path("health-sandbox")

    /// `health-sandbox confine` with `options`, then `/bin/true`; the shim loaded when asked.
    func confine(_ options: [String], withoutLandlock: Bool) async throws -> ProcessResult {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-no-landlock-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var environment: [String: String] = [:]
        if withoutLandlock {
            environment["LD_PRELOAD"] = try PreloadShim.build(PreloadShim.source("NoLandlockShim", "no_landlock_shim.c"),
                                                              into: directory)
        }
        let script = #"exec 3</dev/null; exec "$0" confine --fd 3 --read-exec / "$@" -- /bin/true"#
        return try await ProcessRun.run("/bin/sh", ["-c", script, Self.launcher] + options, environment: environment)
    }

    @Test func withoutLandlockTheDefaultRefusesNamingWhatIsMissing() async throws {
        let result = try await confine([], withoutLandlock: true)
        #expect(result.status == 71, "\(result)")
        #expect(result.stderr.contains("landlock: the kernel has no Landlock, the policy requires ABI 1"), "\(result)")
    }

    @Test func withoutLandlockAnExplicitZeroRunsTheApp() async throws {
        let result = try await confine(["--landlock-abi", "0"], withoutLandlock: true)
        #expect(result.status == 0, "\(result)")
    }

    /// Control: the same default on this kernel's Landlock confines and runs the app, so the
    /// refusal above is the missing Landlock, not the command line.
    @Test(.enabled(if: KernelFeatures.hasLandlock, "needs Landlock (Linux 5.13 with lsm=landlock)"))
    func withLandlockTheDefaultRunsTheApp() async throws {
        let result = try await confine([], withoutLandlock: false)
        #expect(result.status == 0, "\(result)")
    }

    /// Every command that confines apps says what its default is: the person reading `--help`
    /// learns that 0 is the choice to run without Landlock.
    @Test(arguments: ["run", "agent", "confine"])
    func everyConfiningCommandRequiresLandlockByDefault(command: String) async throws {
        let result = try await ProcessRun.run(Self.launcher, [command, "--help"])
        let help = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(help.contains("(default: 1)") && help.contains("--landlock-abi"), "\(result)")
        #expect(help.contains("0 runs without Landlock"), "\(result)")
    }
}
