import Foundation

/// A finished child process: exit status and everything it printed.
struct ProcessResult: Sendable, CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Runs executables as real child processes, with a deadline so a hung child fails the test
/// instead of hanging the suite.
enum ProcessRun {
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    stdin: String? = nil, timeout: TimeInterval = 60) async throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        // Read both pipes while the child runs, so a chatty child never blocks on a full pipe.
        // The blocking reads run on GCD threads: on Swift's cooperative pool (two threads on
        // this machine) a few concurrent children would starve every other task.
        async let stdoutData = readToEnd(out.fileHandleForReading)
        async let stderrData = readToEnd(err.fileHandleForReading)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                kill(process.processIdentifier, SIGKILL)
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus,
                             stdout: String(decoding: await stdoutData, as: UTF8.self),
                             stderr: String(decoding: await stderrData, as: UTF8.self))
    }

    private static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: handle.readDataToEndOfFile()) }
        }
    }
}
