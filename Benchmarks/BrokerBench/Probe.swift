import BenchSupport
import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire

/// The well-behaved side: `broker-bench probe SOCKET N` runs in the bystander copy (another app
/// to healthd) and times N cheap calls (AuthorizationStatus), one every 10 ms, each on the one
/// connection it keeps; prints "latencies-ms v1 v2 …". A call that fails counts as 10 s.
enum Probe {
    static func run(socket: String, calls: Int) async {
        let request = TypeIdentifierMessage(HKQuantityTypeIdentifier.stepCount.rawValue).wireBytes()
        var times: [Double] = []
        let client = try? RPCClient.connect(path: socket)
        for _ in 0..<calls {
            let started = ContinuousClock.now
            let answered = await withTaskGroup(of: Bool.self) { group in
                group.addTask { (try? await client?.unary(HealthStoreMethod.authorizationStatus.rawValue, request)) != nil }
                group.addTask {
                    try? await Task.sleep(for: .seconds(10))
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            let elapsed = ContinuousClock.now - started
            times.append(answered ? Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000 : 10_000)
            try? await Task.sleep(for: .milliseconds(10))
        }
        client?.close()
        print("latencies-ms " + times.map { String(format: "%.3f", $0) }.joined(separator: " "))
    }

    /// Runs the probe in the bystander copy and returns its latencies in ms.
    static func measure(_ healthd: BenchHealthd, calls: Int) throws -> [Double] {
        let output = try Spawn.output(healthd.bystanderExecutable, ["probe", healthd.appSocket, "\(calls)"])
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("latencies-ms") }) else {
            throw BenchFailed("the probe printed no latencies: \(output)")
        }
        return line.split(separator: " ").dropFirst().compactMap { Double($0) }
    }

    /// `healthctl status` wall times, in ms.
    static func manager(_ healthd: BenchHealthd, times: Int) throws -> [Double] {
        let healthctl = (CommandLine.executablePath as NSString).deletingLastPathComponent + "/healthctl"
        return try (0..<times).map { _ in
            let started = Date()
            _ = try Spawn.output(healthctl, ["status", "--socket", healthd.adminSocket])
            return Date().timeIntervalSince(started) * 1000
        }
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded(.up)))]
    }
}

/// Runs a child process to completion and returns its standard output.
enum Spawn {
    static func output(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
