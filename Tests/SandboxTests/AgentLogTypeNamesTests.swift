import Foundation
import HealthSandboxKit
import HealthWire
import Synchronization
import Testing

/// The launch agent's log (stderr, so the user's journal: unencrypted, readable by `adm` and
/// `systemd-journal` members) says which app was launched and why in counts, never which kinds of
/// health data changed: DESIGN.md §5 keeps type names off the disk. Before, every launch line
/// ended "for HKCategoryTypeIdentifierMenstrualFlow, …" — a timeline of what changed when, per
/// app (storage review, session 18); this test failed on it.
@Suite(.timeLimit(.minutes(10))) struct AgentLogTypeNamesTests {
    @Test func aLaunchIsLoggedWithACountOfTypesNotTheirNames() {
        let lines = Mutex<[String]>([])
        let exited = DispatchSemaphore(value: 0)
        // `/bin/true run APP …` stands in for health-sandbox: it starts and exits at once.
        let spawner = SandboxedAppSpawner(.init(launcher: "/bin/true", adminSocket: "/nonexistent", logDirectory: nil,
                                                extraReadable: [], extraWritable: [], minimumLandlockABI: 0),
                                          report: { line in lines.withLock { $0.append(line) } },
                                          onExit: { _ in exited.signal() })
        let types = ["HKCategoryTypeIdentifierMenstrualFlow", "HKCategoryTypeIdentifierPregnancyTestResult"]
        let outcome = spawner.launch(LaunchRequest(requestID: 7, appID: "org.test.agent-log", executable: "/bin/true", typeIdentifiers: types))
        #expect(outcome.kind == .launched, "\(outcome)")
        #expect(exited.wait(timeout: .now() + 60) == .success)
        let logged = lines.withLock { $0 }
        #expect(logged.contains { $0.contains("launched org.test.agent-log") && $0.contains("2 types") }, "\(logged)")
        #expect(!logged.contains { $0.contains("HK") }, "a type name reached the log: \(logged)")
    }
}
