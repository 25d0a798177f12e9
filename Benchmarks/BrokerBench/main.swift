import BenchSupport
import Foundation
import Glibc

// broker-bench: one hostile app per issue-13 attack beside a well-behaved app and healthctl.
// Per attack: the well-behaved app's cheap-call p50/p99, healthctl status's worst time, and
// healthd's RSS, against the goal (p99 < 50 ms, RSS bounded). Needs the release build's
// healthd and healthctl next to it. Modes used internally: probe, refused-flood.
signal(SIGPIPE, SIG_IGN)
let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "probe":
    await Probe.run(socket: arguments[2], calls: Int(arguments[3]) ?? 100)
case "refused-flood":
    await Attack.refusedFlood(socket: arguments[2])
default:
    let samples = arguments.count > 1 ? Int(arguments[1]) ?? 50_000 : 50_000
    let calls = arguments.count > 2 ? Int(arguments[2]) ?? 200 : 200
    do {
        try await Bench.run(samples: samples, calls: calls)
    } catch {
        print("broker-bench failed: \(error)")
        exit(1)
    }
}

enum Bench {
    static let goalMilliseconds = 50.0

    static func run(samples: Int, calls: Int) async throws {
        print("broker-bench: \(samples) step samples readable by the hostile app; \(calls) cheap calls by the bystander per attack")
        print("goal: bystander p99 < \(Int(goalMilliseconds)) ms under every attack; healthd RSS bounded")
        print("attack | bystander p50 ms | p99 ms | max ms | healthctl status max ms | healthd RSS MiB (peak) | log lines | goal")
        for attack in Attack.all {
            // A fresh broker per attack, so one attack's leftovers never weigh on the next.
            let healthd = try await BenchHealthd(samples: samples)
            defer { healthd.stop() }
            let logBefore = try logLines(healthd)
            let stop = try await attack.start(healthd)
            try await Task.sleep(for: .seconds(1))
            let times = try Probe.measure(healthd, calls: calls)
            let manager = try Probe.manager(healthd, times: 5)
            let memory = healthd.memory
            stop()
            let logGrowth = try logLines(healthd) - logBefore
            let p99 = Probe.percentile(times, 0.99)
            let met = p99 < goalMilliseconds && healthd.isRunning
            print(String(format: "%@ | %.2f | %.2f | %.2f | %.0f | %.1f (%.1f) | +%d | %@", attack.name,
                         Probe.percentile(times, 0.5), p99, times.max() ?? .nan, manager.max() ?? .nan,
                         memory.rss, memory.peak, logGrowth, met ? "met" : "MISSED"))
        }
    }

    static func logLines(_ healthd: BenchHealthd) throws -> Int {
        let healthctl = (CommandLine.executablePath as NSString).deletingLastPathComponent + "/healthctl"
        return try Spawn.output(healthctl, ["log", "--json", "--socket", healthd.adminSocket]).split(separator: "\n").count
    }
}
