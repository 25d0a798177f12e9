import Foundation

/// `store-crash-child step`: a child that works on a store one command at a time and is idle
/// in between, so the test can look at the files exactly as an acknowledgement left them.
final class StepChild {
    struct Died: Error, CustomStringConvertible {
        let command: String
        let errorOutput: String
        var description: String { "store-crash-child died during '\(command)': \(errorOutput)" }
    }

    private let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    private var pending = Data()

    /// Starts the child on `directory` and waits until it has opened the store.
    init(directory: String, environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: CrashChild.executablePath)
        process.arguments = ["step", directory]
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        _ = try linesUntilDone(command: "open")
    }

    /// Sends one command ("save", "bulk", "rotate") and returns what the child acknowledged.
    func send(_ command: String) throws -> [String] {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        return try linesUntilDone(command: command)
    }

    private func linesUntilDone(command: String) throws -> [String] {
        var lines: [String] = []
        while true {
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...end)
                if line == "done" { return lines }
                lines.append(line)
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                process.waitUntilExit()
                throw Died(command: command, errorOutput: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
            }
            pending.append(chunk)
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
