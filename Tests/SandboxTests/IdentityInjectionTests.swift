import Foundation
import Testing
import TestSupport

/// Issue 12's identity theft: an app execs another app's executable with loader variables
/// (LD_PRELOAD) so that its own code runs under the victim's path, and connects to healthd.
/// Inside the sandbox that code has only the attacker's launch-bound connection — the app
/// socket is not in its mount namespace — so it acts as the attacker or not at all. Outside the
/// sandbox the same attack works, which is why direct connections are an opt-in.
@Suite(.timeLimit(.minutes(10)), .serialized) struct IdentityInjectionTests {
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"
    static let t = "1700000000"

    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func execingAnotherAppsExecutableNeverYieldsItsIdentity(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let victim = try await world.install("org.test.victim", product: "e2e-client")
        let attacker = try await world.install("org.test.attacker", product: "escape-probe")
        for (app, access) in [("org.test.victim", "share"), ("org.test.attacker", "share")] {
            let granted = try await world.healthctl(["grant", app, access, Self.heartRate])
            #expect(granted.status == 0, "\(granted)")
        }
        let own = try await world.runSandboxed("org.test.victim", data: victim.data, [victim.executable] + save(60))
        #expect(own.okValue != nil, "the victim saves its own sample: \(own)")
        // The worst case: the user even allowed the victim to connect directly.
        #expect(try await world.healthctl(["apps", "allow-direct", "org.test.victim"]).status == 0)

        // Another app's install folder is not in the attacker's mount namespace at all…
        let inject = [attacker.executable, "exec-victim", "--app-socket", world.appSocket, "--", victim.executable] + save(61)
        let hidden = try await world.runSandboxed("org.test.attacker", data: attacker.data, inject)
        #expect(hidden.stdout.contains("exec_victim: denied (ENOENT)"), "\(hidden)")
        // …and where the victim's executable is readable (a shared folder such as /usr/lib), the
        // injected code, dropping the attacker's descriptor to dial the app socket by path, finds none.
        let byPath = try await world.runSandboxed("org.test.attacker", data: attacker.data, inject,
                                                  allowRead: [(victim.executable as NSString).deletingLastPathComponent])
        #expect(byPath.okValue == nil && byPath.errorCode != nil, "by path: \(byPath)")
        // Injected code that keeps the inherited descriptor is served as the attacker.
        let inherited = try await world.runSandboxed("org.test.attacker", data: attacker.data, [victim.executable] + save(62),
                                                     environment: ["LD_PRELOAD": "/tmp/injected.so"])
        #expect(inherited.okValue != nil, "inherited connection: \(inherited)")
        #expect(try await sampleCount(world, source: "org.test.victim") == 1, "a sample was saved as the victim")
        #expect(try await sampleCount(world, source: "org.test.attacker") == 1)

        // Control, unconfined: with the victim opted in, the injection is served as the victim…
        let control = try await user.run(attacker.executable, ["exec-victim", "--app-socket", world.appSocket, "--", victim.executable] + save(63))
        #expect(control.okValue != nil, "control: the attack works outside the sandbox in the weaker mode: \(control)")
        #expect(try await sampleCount(world, source: "org.test.victim") == 2)
        // …and refused, naming the command, once the opt-in is withdrawn.
        #expect(try await world.healthctl(["apps", "deny-direct", "org.test.victim"]).status == 0)
        let refused = try await user.run(attacker.executable, ["exec-victim", "--app-socket", world.appSocket, "--", victim.executable] + save(64))
        #expect(refused.okValue == nil && refused.stdout.contains("healthctl apps allow-direct org.test.victim"), "\(refused)")
        #expect(try await sampleCount(world, source: "org.test.victim") == 2)
    }

    private func save(_ value: Int) -> [String] { ["save", Self.heartRate, String(value), "count/min", Self.t, Self.t] }

    private func sampleCount(_ world: EscapeWorld, source: String) async throws -> Int {
        let listing = try await world.healthctl(["samples", "heartRate", "--json"])
        return listing.stdout.split(separator: "\n").filter { $0.contains("\"\(source)\"") }.count
    }
}
