import Foundation
import HealthIPC
public import HealthWire
import Synchronization

/// `health-sandbox agent`: the user's long-running process that starts apps for background
/// delivery. healthd decides when an app must run but cannot start it (its seccomp filter
/// forbids exec); the agent watches healthd's WatchLaunches stream on the admin socket and hands
/// each request to `SandboxedAppSpawner`.
///
/// Every request gets an outcome reported back (ReportLaunchOutcome: launched, already running,
/// failed), and so does every launched app's exit, in the order they happened — one sender
/// (`Outcomes`), so healthd never hears of an exit before the launch.
///
/// It survives healthd restarts: when the stream ends or healthd cannot be reached it tries
/// again, waiting 1 s and doubling up to 30 s, and — so as not to start a socket-activated
/// healthd that exited idle — only while healthd's running marker exists. It gives up only when healthd refuses it (another
/// agent is attached, or this program is not one of the manager tools healthd trusts).
public struct LaunchAgent: Sendable {
    let adminSocket: String
    let spawner: SandboxedAppSpawner
    let outcomes: Outcomes
    let report: @Sendable (String) -> Void

    static let firstRetry: Duration = .seconds(1)
    static let longestRetry: Duration = .seconds(30)
    static let markerPoll: Duration = .seconds(1)

    /// `outcomes`: the queue `spawner` reports exits to (its `onExit`).
    public init(adminSocket: String, spawner: SandboxedAppSpawner, outcomes: Outcomes, report: @escaping @Sendable (String) -> Void) {
        self.adminSocket = adminSocket
        self.spawner = spawner
        self.outcomes = outcomes
        self.report = report
    }

    /// Runs until healthd refuses the agent; returns that refusal.
    public func run() async -> AppLauncher.Failure {
        let sender = Task { [outcomes, report] in await outcomes.sendAll(report: report) }
        defer { sender.cancel() }
        var retry = Self.firstRetry
        while true {
            switch await watchOnce() {
            case let .refused(failure):
                return failure
            case .watched:
                retry = Self.firstRetry
            case .unreachable:
                break
            }
            report("retrying in \(retry.components.seconds) s")
            try? await Task.sleep(for: retry)
            retry = min(retry * 2, Self.longestRetry)
            await waitUntilBrokerRuns()
        }
    }

    /// Returns once healthd's running marker (`DefaultPaths.runningMarker`) is in the socket
    /// folder. A socket-activated healthd that exited idle removed it: connecting now would
    /// start healthd again only to hold the agent's stream, and it would never stay idle. The
    /// marker is looked at once a second, which starts nothing; whatever starts healthd (an
    /// app, healthctl) brings the agent back within that second.
    private func waitUntilBrokerRuns() async {
        let marker = DefaultPaths.runningMarker(in: (adminSocket as NSString).deletingLastPathComponent)
        var reported = false
        while access(marker, F_OK) != 0 {
            if !reported {
                report("healthd is not running (no \(marker)); reconnecting once it starts")
                reported = true
            }
            try? await Task.sleep(for: Self.markerPoll)
        }
    }

    private enum Outcome {
        /// The stream ran and ended (healthd stopped or restarted).
        case watched
        case unreachable
        case refused(AppLauncher.Failure)
    }

    /// One connection: watch launches until the stream ends.
    private func watchOnce() async -> Outcome {
        let client: RPCClient
        do {
            client = try RPCClient.connect(path: adminSocket)
        } catch where error.isImpostorSuspected {
            // Not a healthd of this user's: waiting would only hand it the next connection.
            return .refused(AppLauncher.Failure(description: "\(error)", exitCode: 77))
        } catch {
            report("cannot reach healthd at \(adminSocket): \(error) — is healthd running?")
            return .unreachable
        }
        outcomes.connection.withLock { $0 = client }
        defer {
            outcomes.connection.withLock { $0 = nil }
            client.close()
        }
        report("connected to healthd at \(adminSocket); waiting for launch requests")
        do {
            for try await payload in client.serverStream(HealthManagerMethod.watchLaunches.rawValue, EmptyMessage().wireBytes()) {
                do {
                    spawner.launch(try LaunchRequest(wire: payload), deliver: outcomes.send)
                } catch {
                    report("ignoring a malformed launch request: \(error)")
                }
            }
            report("healthd ended the launch stream (it stopped)")
        } catch let status as RPCStatus where [.failedPrecondition, .permissionDenied, .unimplemented].contains(status.code) {
            return .refused(AppLauncher.Failure(description: "healthd refused the agent: \(status.message)", exitCode: 77))
        } catch {
            report("lost the connection to healthd: \(error)")
        }
        return .watched
    }
}

extension LaunchAgent {
    /// `run()` for synchronous callers (the command line's `run`), blocking this thread.
    public func runBlocking() -> AppLauncher.Failure {
        switch BlockingCall.run({ await run() }) {
        case let .success(failure): failure
        case let .failure(error): AppLauncher.Failure(description: "the agent stopped: \(error)", exitCode: 70)
        }
    }

    /// This program's own path (`/proc/self/exe`): launches re-run it as `health-sandbox run`,
    /// which healthd trusts on the admin socket as it trusts the agent.
    public static func launcherPath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension LaunchAgent {
    /// The outcomes to report to healthd, sent one at a time in order over the current
    /// connection. An outcome with no connection to go over is dropped: the healthd it was for
    /// is gone, and a new one forgets what it had asked of the agent.
    public final class Outcomes: Sendable {
        private let stream: AsyncStream<LaunchOutcome>
        private let continuation: AsyncStream<LaunchOutcome>.Continuation
        let connection = Mutex<RPCClient?>(nil)

        public init() {
            (stream, continuation) = AsyncStream<LaunchOutcome>.makeStream()
        }

        /// From any thread (the spawner's reaper threads included).
        public func send(_ outcome: LaunchOutcome) {
            continuation.yield(outcome)
        }

        func sendAll(report: @Sendable (String) -> Void) async {
            for await outcome in stream {
                guard let client = connection.withLock({ $0 }) else { continue }
                do {
                    _ = try await client.unary(HealthManagerMethod.reportLaunchOutcome.rawValue, outcome.wireBytes())
                } catch {
                    report("healthd did not take the outcome of launch request \(outcome.requestID): \(error)")
                }
            }
        }
    }
}
