import Foundation
import Glibc
import Synchronization
import TestSupport

/// The scripted test app started under health-sandbox and left running, its output read line
/// by line as it arrives: for long-running queries, whose deliveries the test waits for between
/// the changes it makes.
final class LiveApp: Sendable {
    private let child: ChildProcess
    private let output = OutputBuffer()

    /// Starts `e2e-client ARGS…` confined as `appID` through the broker at `adminSocket`.
    init(_ appID: String, _ arguments: [String], adminSocket: String) throws {
        let pipe = try ProcessRun.pipe()
        do {
            child = try ChildProcess(Products.path("health-sandbox"),
                                     ["run", appID, "--socket", adminSocket, "--", BrokerProcess.clientExecutable] + arguments,
                                     stdout: pipe.write)
        } catch {
            close(pipe.read)
            close(pipe.write)
            throw error
        }
        close(pipe.write)
        // The reader holds the buffer, not the app: dropping the app (deinit) still kills the child.
        let output = output
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(pipe.read, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let text = String(decoding: buffer[0..<count], as: UTF8.self)
                output.text.withLock { $0 += text }
            }
            close(pipe.read)
            output.closed.signal()
        }
    }

    /// The complete lines printed so far.
    var lines: [String] {
        output.text.withLock { text in text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    /// Waits (polling, at most `timeout` seconds) until the output has a line equal to `line`;
    /// false if the app exited or the time ran out first.
    func waitForLine(_ line: String, timeout: TimeInterval = 120) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if lines.contains(line) { return true }
            if !child.isRunning { return lines.contains(line) }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Waits for the app to exit (killing it after `timeout`), then returns everything it printed.
    func finish(timeout: TimeInterval = 120) async -> ProcessResult {
        let status = await child.wait(timeout: timeout)
        let closed = output.closed
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                closed.wait()
                continuation.resume()
            }
        }
        return ProcessResult(status: status, stdout: output.text.withLock { $0 }, stderr: "")
    }

    /// SIGKILLs the app (its sandbox, which takes the app with it: `--die-with-parent`).
    func kill() {
        child.signal(SIGKILL)
    }

    deinit {
        child.signal(SIGKILL)
    }

    /// What the reader thread fills: the text so far, and a signal once the pipe closed.
    private final class OutputBuffer: Sendable {
        let text = Mutex("")
        let closed = DispatchSemaphore(value: 0)
    }
}

/// A `delivery …` block of the anchored command's output: the lines before it, since the last one.
struct AnchoredDeliveryLines: Equatable {
    var kind: String
    var added: [String]     // sample values, in order
    var addedSources: [String]
    var deleted: [String]   // "SYNC-ID SYNC-VERSION"
    var deletedUUIDs: [String]
}

extension ProcessResult {
    /// The anchored command's deliveries, in order.
    var anchoredDeliveries: [AnchoredDeliveryLines] { Self.deliveries(in: lines) }

    static func deliveries(in lines: [String]) -> [AnchoredDeliveryLines] {
        var result: [AnchoredDeliveryLines] = []
        var current = AnchoredDeliveryLines(kind: "", added: [], addedSources: [], deleted: [], deletedUUIDs: [])
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            switch fields.first {
            case "added":
                current.added.append(fields[2])
                current.addedSources.append(fields[3])
            case "deleted":
                current.deleted.append(fields[2] + " " + fields[3])
                current.deletedUUIDs.append(fields[1])
            case "delivery":
                current.kind = fields[1]
                result.append(current)
                current = AnchoredDeliveryLines(kind: "", added: [], addedSources: [], deleted: [], deletedUUIDs: [])
            default:
                continue
            }
        }
        return result
    }
}

extension LiveApp {
    var anchoredDeliveries: [AnchoredDeliveryLines] { ProcessResult.deliveries(in: lines) }
}
