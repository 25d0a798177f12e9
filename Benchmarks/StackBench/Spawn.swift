import BenchSupport
import Foundation

/// Child processes: app sides (this executable in app mode, under the app socket), the raw
/// ping-pong, taskset.
enum Spawn {
    /// Runs `executable` to completion and returns its standard output; fails on a non-zero exit.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    quiet: Bool = false) throws -> String {
        let child = try start(executable, arguments, environment: environment, quiet: quiet)
        return try child.finish()
    }

    /// `quiet`: the child's standard error is discarded (a probe expected to fail).
    static func start(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                      quiet: Bool = false) throws -> Child {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = quiet ? FileHandle.nullDevice : FileHandle.standardError
        try process.run()
        return Child(process: process, output: pipe.fileHandleForReading, what: ([executable] + arguments).joined(separator: " "))
    }

    struct Child {
        let process: Process
        let output: FileHandle
        let what: String

        func finish() throws -> String {
            let data = output.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            guard process.terminationStatus == 0 else { throw BenchFailed("\(what) exited \(process.terminationStatus): \(text)") }
            return text
        }

        /// The numbers of the "result …" line the child printed.
        func results() throws -> [Double] {
            let text = try finish()
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("result") }) else {
                throw BenchFailed("\(what) printed no result: \(text)")
            }
            return line.split(separator: " ").dropFirst().compactMap { Double($0) }
        }
    }
}
