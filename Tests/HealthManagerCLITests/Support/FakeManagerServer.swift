import Foundation
import Glibc
import HealthIPC
import HealthWire
import Synchronization

/// A stand-in for healthd's admin socket: a real listening Unix socket in a temp directory,
/// each connection served by `ServerConnection`, every call answered by the test's handler.
/// It records the calls it received so a test can check what healthctl sent.
final class FakeManagerServer: Sendable {
    let socketPath: String
    private let directory: String
    private let listener: Int32
    private let log = CallLog()

    /// The calls received so far, shared with the connection threads.
    final class CallLog: Sendable {
        private let calls = Mutex<[(method: String, payload: [UInt8])]>([])
        func append(_ method: String, _ payload: [UInt8]) { calls.withLock { $0.append((method, payload)) } }
        func payloads(for method: String) -> [[UInt8]] {
            calls.withLock { $0.filter { $0.method == method }.map(\.payload) }
        }
    }

    init(handler: @escaping @Sendable (IncomingCall) async -> Void) throws {
        var template = Array("/tmp/hctl-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SystemCallError("mkdtemp") }
        directory = String(cString: made)
        socketPath = directory + "/admin.sock"
        listener = try UnixSocket.listen(path: socketPath, mode: 0o600)
        let listener = listener
        let log = log
        Thread {
            // Ends when stop() shuts the listener down and accept fails.
            while let fd = try? UnixSocket.accept(listener) {
                let connection = ServerConnection(fd: fd)
                Thread {
                    _ = connection.serve { call in
                        log.append(call.method, call.payload)
                        await handler(call)
                    }
                }.start()
            }
        }.start()
    }

    /// Payloads received for `method`, in order.
    func payloads(for method: HealthManagerMethod) -> [[UInt8]] {
        log.payloads(for: method.rawValue)
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(socketPath)
        rmdir(directory)
    }
}
