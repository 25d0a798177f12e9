import Foundation
import HealthWire
import Synchronization
import TestSupport

/// One app's `leak-probe-client`, started under health-sandbox and kept running: the test sends
/// one command at a time and reads its answer before deciding the next, so it can make another
/// app act between two calls and build a request from an earlier answer (an anchor).
final class ProbeSession: Sendable {
    private let session: ProbeClientSession
    private let minted = Mutex<[UUID]>([])

    /// Starts the client confined as `appID` through the broker at `adminSocket`.
    init(_ appID: String, adminSocket: String) throws {
        session = try ProbeClientSession(Products.path("health-sandbox"),
                                         ["run", appID, "--socket", adminSocket, "--", ProbeWorld.client])
    }

    /// Sends one command and returns what the client printed for it (not counting open streams'
    /// `watch` lines), once it printed `done`. The timeout only turns a hang into a failure, so it
    /// is generous: with the target's suites running side by side (several brokers each) on a
    /// loaded 2-core machine, one answer was seen to take over 30 s.
    func run(_ command: String, timeout: TimeInterval = 90) async throws -> [String] {
        let answer: [String]
        do {
            answer = try await session.run(command, timeout: timeout, poll: .milliseconds(2))
        } catch let failure as ProbeClientSession.Failure {
            throw ProbeFailed(reason: failure.description)
        }
        if command.hasPrefix("unary \(HealthStoreMethod.save.rawValue) ") {
            minted.withLock { $0 += ProbeTranscript.savedUUIDs(answer) }
        }
        return answer
    }

    /// Every UUID a save of this session was answered with: what the broker minted for this app
    /// (or, for a save it ignored, the UUID of this app's object that stays stored).
    var savedUUIDs: [UUID] { minted.withLock { $0 } }

    /// Every `watch NAME …` line so far, without the prefix.
    func watched(_ name: String) -> [String] { session.watched(name) }

    /// Ends the session: the client sees end of input and exits.
    func finish() async throws {
        let status = await session.finish()
        guard status == 0 else { throw ProbeFailed(reason: "the probe client exited with \(status)") }
    }
}
