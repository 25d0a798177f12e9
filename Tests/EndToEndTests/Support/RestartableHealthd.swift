import Foundation

/// A healthd that a test stops and starts again on the same store, with or without a passcode
/// (BrokerProcess runs one healthd on a fresh store for its whole life).
final class RestartableHealthd: @unchecked Sendable {
    let root: String
    let storeDirectory: String
    let socketDirectory: String
    private let logPath: String
    private var process: Process?

    var appSocket: String { socketDirectory + "/app.sock" }
    var adminSocket: String { socketDirectory + "/admin.sock" }
    var storeArguments: [String] { ["--store", storeDirectory, "--socket-dir", socketDirectory, "--log-level", "info"] }

    init() throws {
        root = NSTemporaryDirectory() + "ohk-e2e-keys-" + UUID().uuidString.prefix(8)
        storeDirectory = root + "/store"
        socketDirectory = root + "/run"
        logPath = root + "/healthd.log"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    }

    /// Starts healthd and waits for its sockets; `extraArguments` such as --passcode-file,
    /// `standardInput` written to its stdin (for --passcode-stdin).
    func start(_ extraArguments: [String] = [], standardInput: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Products.path("healthd"))
        process.arguments = storeArguments + extraArguments
        let logFile = FileHandle(forWritingAtPath: logPath)!
        logFile.seekToEndOfFile()
        process.standardError = logFile
        process.standardOutput = FileHandle.nullDevice
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let standardInput { input.fileHandleForWriting.write(Data(standardInput.utf8)) }
        try? input.fileHandleForWriting.close()
        self.process = process
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: adminSocket), FileManager.default.fileExists(atPath: appSocket) { return }
            guard process.isRunning else { throw BrokerFailed(log: "exit \(process.terminationStatus): \(log)") }
            usleep(20_000)
        }
        throw BrokerFailed(log: "healthd did not create its sockets within 30 s")
    }

    /// Runs healthd expecting it to refuse to start; returns how it exited.
    func startRefused(_ extraArguments: [String] = []) async throws -> ProcessResult {
        try await ProcessRun.run(Products.path("healthd"), storeArguments + extraArguments, timeout: 30)
    }

    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }

    /// healthd's stderr over every start so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Runs healthctl. Unlike ProcessRun, no thread of this process blocks while it runs (its
    /// output goes to files, its exit arrives by terminationHandler): Swift's cooperative pool
    /// has only two threads here, and tests that save concurrently need them meanwhile.
    func healthctl(_ arguments: [String], stdin: String? = nil) async throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Products.path("healthctl"))
        process.arguments = arguments + ["--socket", adminSocket]
        let stem = root + "/healthctl-" + UUID().uuidString.prefix(8)
        for suffix in [".out", ".err"] { _ = FileManager.default.createFile(atPath: stem + suffix, contents: nil) }
        process.standardOutput = FileHandle(forWritingAtPath: stem + ".out")
        process.standardError = FileHandle(forWritingAtPath: stem + ".err")
        let input = Pipe()
        process.standardInput = input
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
                return
            }
            if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
            try? input.fileHandleForWriting.close()
        }
        func text(_ suffix: String) -> String { (try? String(contentsOfFile: stem + suffix, encoding: .utf8)) ?? "" }
        return ProcessResult(status: status, stdout: text(".out"), stderr: text(".err"))
    }

    /// A file (mode 600) holding `passcode` on its first line.
    func passcodeFile(_ passcode: String) throws -> String {
        let path = root + "/passcode-" + UUID().uuidString.prefix(8)
        FileManager.default.createFile(atPath: path, contents: Data((passcode + "\n").utf8), attributes: [.posixPermissions: 0o600])
        return path
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: root)
    }
}
