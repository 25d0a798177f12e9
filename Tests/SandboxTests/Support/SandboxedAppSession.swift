import Foundation
import TestSupport

/// A `leak-probe-client` kept running under the real health-sandbox, as `EscapeWorld`'s user:
/// the test writes one command at a time (see Tests/LeakProbeClient/main.swift for the
/// language) and reads its answer, while streams opened with `open` keep printing `watch` lines.
final class SandboxedAppSession: Sendable {
    private let session: ProbeClientSession

    init(_ appID: String, in world: EscapeWorld, executable: String, data: String) async throws {
        let (program, arguments) = try await world.user.command(
            Products.path("health-sandbox"), ["run", appID, "--socket", world.adminSocket, "--data", data, "--", executable])
        session = try ProbeClientSession(program, arguments)
    }

    /// Sends one command; returns what the client printed for it (without `watch` lines) once it
    /// printed `done`. The timeout only turns a hang into a failure.
    func run(_ command: String, timeout: TimeInterval = 60) async throws -> [String] {
        try await session.run(command, timeout: timeout)
    }

    /// Every `watch NAME …` line so far, without the prefix.
    func watched(_ name: String) -> [String] { session.watched(name) }

    /// Waits (bounded) until `name` printed a line that `matches`; returns it, or nil.
    func waitForWatched(_ name: String, timeout: TimeInterval = 60, where matches: (String) -> Bool) async throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = watched(name).first(where: matches) { return line }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Ends the session: the client sees end of input and exits.
    func finish() async -> Int32 { await session.finish() }
}
