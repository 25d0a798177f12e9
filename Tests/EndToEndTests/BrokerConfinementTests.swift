import Foundation
import Testing

/// healthd confines itself once it is serving (DESIGN.md §2): no_new_privs and a seccomp filter
/// (no exec, no non-Unix sockets) on every one of its threads, and it is not dumpable.
@Suite(.timeLimit(.minutes(10))) struct BrokerConfinementTests {
    func statusFields(_ path: String) throws -> [String: String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return fields
    }

    @Test func everyThreadOfTheServingBrokerIsFiltered() async throws {
        let broker = try BrokerProcess()
        #expect(try await broker.healthctl(["status"]).status == 0)  // serving, with its threads started
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(broker.pid)/task")
        #expect(threads.count > 1)
        for thread in threads {
            let fields = try statusFields("/proc/\(broker.pid)/task/\(thread)/status")
            #expect(fields["Seccomp"] == "2", "thread \(thread) is not filtered")
            #expect(fields["NoNewPrivs"] == "1", "thread \(thread) lacks no_new_privs")
        }
    }
}
