import Foundation
import HealthIPC
import HealthWire
import Synchronization
import Testing
import TestSupport

/// The tests' sandboxed clients live as long as the test wants them, not as long as the thread
/// that started them. health-sandbox runs bubblewrap with `--die-with-parent`, which is
/// `PR_SET_PDEATHSIG`, and Linux sends that signal when the *thread* that started the process
/// ends (prctl(2)). Started from a pooled thread that the pool later retired, leak-probe clients
/// were killed mid-session (exit 137: LeakProbeTests failed CI at the session 12 close, and 1–2
/// of every LeakProbeTests run here; traced to the exiting thread with the kernel's
/// signal_generate event). `ChildProcess` now starts every child from a thread that waits for it.
@Suite(.timeLimit(.minutes(10))) struct ClientLifetimeEndToEndTests {
    /// The client is started from a thread that ends once the client has answered (so bubblewrap
    /// has armed its parent-death signal); a second later the client still answers. Before the
    /// fix it was killed as that thread ended, and the second command found no reader.
    @Test func aSandboxedClientOutlivesTheThreadThatStartedIt() async throws {
        let broker = try BrokerProcess()
        let appID = "org.test.client-lifetime"
        let client = Products.path("leak-probe-client")
        _ = try await broker.install(appID: appID, executable: client)
        let started = Mutex<Result<ProbeClientSession, any Error>?>(nil)
        let (startedSignal, answered, ended) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let thread = Thread {
            started.withLock {
                $0 = Result { try ProbeClientSession(Products.path("health-sandbox"),
                                                     ["run", appID, "--socket", broker.adminSocket, "--", client]) }
            }
            startedSignal.signal()
            answered.wait()
            ended.signal()
        }
        thread.start()
        await Self.wait(for: startedSignal)
        let session = try #require(started.withLock { $0 }).get()
        // Bytes no message decodes from: healthd's refusal is an answer only a live client prints.
        let command = "unary \(HealthStoreMethod.save.rawValue) ffff"
        #expect(try await session.run(command, timeout: 120).contains { $0.hasPrefix("status ") })
        answered.signal()
        await Self.wait(for: ended)
        try await Task.sleep(for: .seconds(1))  // the starting thread has returned and ended
        #expect(try await session.run(command, timeout: 120).contains { $0.hasPrefix("status ") })
        #expect(await session.finish() == 0)
    }

    private static func wait(for semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                semaphore.wait()
                continuation.resume()
            }
        }
    }
}
