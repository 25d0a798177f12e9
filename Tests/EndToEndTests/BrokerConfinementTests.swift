import CSandbox
import Foundation
import Testing

/// healthd confines itself (DESIGN.md §2): Landlock to its folders before its first thread, then,
/// once it is serving, no_new_privs and a seccomp filter (no exec, no non-Unix sockets) on every
/// one of its threads; it is not dumpable. What the Landlock policy refuses is attacked in
/// SandboxTests/BrokerFileConfinementTests; here, that the real healthd applies it.
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

    /// The processes whose parent is `pid`.
    func children(of pid: Int32) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            entry.allSatisfy(\.isNumber) && (try? statusFields("/proc/\(entry)/status"))?["PPid"] == String(pid)
        }
    }

    /// Landlock before the first thread (SECURITY.md "healthd's own confinement"), built from the
    /// folders healthd was given, and the peer inspector it forked before: its one child, one
    /// thread under its own seccomp allow-list, through which healthctl is identified.
    @Test func healthdConfinesItsFilesBeforeItsFirstThread() async throws {
        let broker = try BrokerProcess()
        #expect(try await broker.healthctl(["status"]).status == 0)
        let line = broker.log.split(separator: "\n").first { $0.contains("confined to its folders by Landlock") }
        if ohk_landlock_abi() > 0 {
            let confined = try #require(line, "healthd did not say it is confined: \(broker.log)")
            #expect(confined.contains("\(broker.storeDirectory), \(broker.socketDirectory)"))
        } else {
            #expect(line == nil)
            #expect(broker.log.contains("this kernel has no Landlock"))
        }
        let inspectors = children(of: broker.pid)
        #expect(inspectors.count == 1, "healthd's children: \(inspectors)")
        for inspector in inspectors {
            let fields = try statusFields("/proc/\(inspector)/status")
            #expect(fields["Seccomp"] == "2")
            #expect(fields["Threads"] == "1")
        }
    }

    /// `healthctl status` shows the walls as the real healthd has them (StatusResponse 26–29):
    /// the kernel's Landlock ABI, the seccomp filter, an answering inspector; and healthd holds no
    /// capability (session 15: dropped before the walls, as root too). Then the inspector is
    /// killed: every new connection — healthctl's too — is refused as unverifiable, so a gone
    /// inspector is seen in the refusal rather than in a status.
    @Test func statusShowsTheWallsAndAGoneInspectorRefusesEveryone() async throws {
        let broker = try BrokerProcess()
        let status = try await broker.healthctl(["status"])
        let row = status.stdout.split(separator: "\n").first { $0.hasPrefix("Confinement:") }.map(String.init) ?? ""
        let abi = Int(ohk_landlock_abi())
        let files = abi > 0 ? "files walled in (Landlock ABI \(abi))" : "files NOT walled in (no Landlock in this kernel)"
        #expect(row.hasSuffix(files + ", seccomp filter, peer inspector answering"), "\(status)")
        let fields = try statusFields("/proc/\(broker.pid)/status")
        for set in ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"] {
            #expect(fields[set] == "0000000000000000", "healthd keeps \(set) \(fields[set] ?? "?")")
        }

        let inspector = try #require(children(of: broker.pid).first.flatMap { Int32($0) })
        kill(inspector, SIGKILL)
        // Gone once it is a zombie (healthd does not reap it) or reaped.
        let deadline = Date().addingTimeInterval(10)
        while let state = (try? statusFields("/proc/\(inspector)/status"))?["State"], !state.hasPrefix("Z"), Date() < deadline {
            usleep(20_000)
        }
        let refused = try await broker.healthctl(["status"])
        #expect(refused.status != 0 && refused.stderr.contains("not an unverifiable executable"), "\(refused)")
    }
}
