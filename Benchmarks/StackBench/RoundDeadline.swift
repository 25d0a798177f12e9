import Foundation
import Glibc
import Synchronization

/// A deadline for each round of an app side (one query, one save, one call): a round that takes
/// longer ends the app process with an error that says which round hung and how to look at it,
/// instead of the run waiting for ever. A query whose slot was never granted
/// (`QueryScheduler.acquire`, fixed in session 11) once hung a 200-round query run for 12
/// minutes, with nothing printed.
///
/// Watched from a thread of its own, not a task: it must fire when the app's tasks and the
/// cooperative pool are what is stuck.
final class RoundDeadline: Sendable {
    /// The orchestrator passes `--round-deadline` to its app processes in these.
    static let secondsKey = "STACK_BENCH_ROUND_DEADLINE"
    static let healthdKey = "STACK_BENCH_HEALTHD_PID"
    /// When the orchestrator gives none: rounds take milliseconds, seconds on a loaded machine.
    static let defaultSeconds = 60

    private let seconds: Int
    private let mode: String
    private let healthdPID: String?
    /// The round under way and when it began; nil between rounds.
    private let current = Mutex<(round: Int, began: ContinuousClock.Instant)?>(nil)

    init(mode: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.mode = mode
        seconds = environment[Self.secondsKey].flatMap { Int($0) }.map { max(1, $0) } ?? Self.defaultSeconds
        healthdPID = environment[Self.healthdKey]
        let thread = Thread { [self] in watch() }
        thread.name = "stack-bench-deadline"
        thread.start()
    }

    /// Runs one round under the deadline.
    func round<T>(_ number: Int, _ body: () async throws -> T) async rethrows -> T {
        begin(number)
        defer { end() }
        return try await body()
    }

    /// For synchronous rounds (a blocking call).
    func begin(_ number: Int) { current.withLock { $0 = (number, ContinuousClock.now) } }
    func end() { current.withLock { $0 = nil } }

    private func watch() {
        let limit = Duration.seconds(seconds)
        while true {
            usleep(250_000)
            guard let late = current.withLock({ $0 }), ContinuousClock.now - late.began > limit else { continue }
            FileHandle.standardError.write(Data(message(round: late.round).utf8))
            exit(3)
        }
    }

    private func message(round: Int) -> String {
        let app = getpid()
        let healthd = healthdPID ?? "HEALTHD_PID"
        return """
            stack-bench app \(mode): round \(round) had no answer after \(seconds) s (rounds take milliseconds): \
            a call whose reply never came, or that never ran. Ending the run.
            To see where it waits, run again with a larger --round-deadline and, while it hangs:
              gdb -p \(app) -batch -ex 'thread apply all bt'      # this app (its RPC reader, its tasks)
              gdb -p \(healthd) -batch -ex 'thread apply all bt'  # healthd
              ss -xp | grep -e 'pid=\(app),' -e 'pid=\(healthd),'  # bytes queued on either side
              cat /proc/\(app)/status /proc/\(healthd)/status

            """
    }
}
