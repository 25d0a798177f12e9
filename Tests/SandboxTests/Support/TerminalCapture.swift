import Foundation
import Glibc
import TestSupport

extension Terminal {
    /// What one run put on the terminal, what it wrote to a pipe, and how it ended.
    struct Capture {
        /// Exit code, or 128 + signal.
        let status: Int32
        /// The bytes the terminal received, with the terminal's own output processing (a newline
        /// sent as CR LF) undone: any other CR in them was written as such.
        let terminal: [UInt8]
        let pipe: [UInt8]
        /// What `whileStalled` returned.
        var stalled = 0
        var terminalText: String { String(decoding: terminal, as: UTF8.self) }
    }

    /// Runs `program` with the terminal `columns` wide as its stdin and stderr, and as its
    /// stdout too unless `stdoutToPipe`; reads the terminal while it runs. With `stall`, nobody
    /// reads the terminal for that long first; then `whileStalled` is asked what it sees.
    func capture(_ program: String, _ arguments: [String], columns: UInt16 = 80, stdoutToPipe: Bool = false,
                 stall: Duration? = nil, whileStalled: @Sendable () -> Int = { 0 }) async throws -> Capture {
        var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(terminalDescriptor, UInt(TIOCSWINSZ), &size)
        let output = try ProcessRun.pipe()
        let child: ChildProcess
        do {
            child = try ChildProcess(program, arguments, stdin: terminalDescriptor, stdout: stdoutToPipe ? output.write : terminalDescriptor,
                                     stderr: terminalDescriptor)
        } catch {
            Glibc.close(output.read)
            Glibc.close(output.write)
            throw error
        }
        Glibc.close(output.write)
        var stalled = 0
        if let stall {
            try? await Task.sleep(for: stall)
            stalled = whileStalled()
        }
        let controller = controllerDescriptor
        let reader = Task.detached { () -> [UInt8] in
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            var idleAfterExit = 0
            while idleAfterExit < 3 {
                var polled = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
                if poll(&polled, 1, 50) > 0 {
                    let count = read(controller, &buffer, buffer.count)
                    if count > 0 { received += buffer[0 ..< count]; continue }
                }
                if !child.isRunning { idleAfterExit += 1 }
            }
            return received
        }
        let piped = await ProcessRun.readToEnd(output.read)
        let status = await child.wait(timeout: 60)
        let received = await reader.value
        return Capture(status: status, terminal: Self.undoOutputProcessing(received), pipe: Array(piped), stalled: stalled)
    }

    /// CR LF back to LF (the terminal's ONLCR).
    static func undoOutputProcessing(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                index += 1
                continue
            }
            result.append(bytes[index])
            index += 1
        }
        return result
    }
}
