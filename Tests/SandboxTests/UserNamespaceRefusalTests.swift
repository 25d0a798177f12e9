import Foundation
import Testing
import TestSupport

/// Where the kernel refuses user namespaces, health-sandbox refuses to launch, naming the
/// setting, rather than run the app less confined. The refusal is made real without touching
/// the machine: `user.max_user_namespaces` is per user namespace, so a child namespace can set
/// its own to 0 for everything it starts.
@Suite(.timeLimit(.minutes(10)), .serialized) struct UserNamespaceRefusalTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), "needs util-linux unshare"),
          arguments: RealSandboxEscapeTests.availableUsers)
    func noUserNamespacesMeansNoLaunch(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let app = try await world.install("org.test.refused", product: "escape-probe")
        let launch = [Products.path("health-sandbox"), "run", "org.test.refused", "--socket", world.adminSocket, "--",
                      app.executable, "exec-victim", "--app-socket", "/nonexistent", "--", "/nonexistent"]
        let script = "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$@\""
        let result = try await user.run("/usr/bin/unshare", ["--user", "--map-root-user", "--", "/bin/sh", "-c", script, "sh"] + launch)
        #expect(result.status == 71, "\(result)")
        #expect(result.stderr.contains("user.max_user_namespaces"), "\(result)")
        #expect(result.stderr.contains("will not run it less confined"), "\(result)")
        #expect(!result.stdout.contains("exec_victim"), "the app ran: \(result)")
    }
}
