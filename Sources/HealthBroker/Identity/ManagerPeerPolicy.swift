import Foundation
import HealthIPC

/// Who may use the admin socket: the broker's own user, running one of the trusted tools
/// (healthctl, health-sandbox), from a process that is not itself confined.
///
/// The last check matters because confinement is inherited across exec: an app started by
/// health-sandbox that execs healthctl still carries the seccomp filter, and is refused here.
struct ManagerPeerPolicy: Sendable {
    let brokerUID: UInt32
    let trustedExecutables: Set<String>

    func refusal(for peer: PeerCredentials) -> String? {
        guard peer.uid == brokerUID else { return "the admin socket accepts only uid \(brokerUID), not \(peer.uid)" }
        guard let executable = peer.executable, trustedExecutables.contains(executable) else {
            return "the admin socket accepts only the manager tools (\(trustedExecutables.sorted().joined(separator: ", "))), not \(peer.executable ?? "an unverifiable executable")"
        }
        if Self.isConfined(pid: peer.pid) {
            return "the admin socket does not accept confined (sandboxed) processes"
        }
        return nil
    }

    /// Reads `Seccomp:` and `NoNewPrivs:` from /proc/PID/status; a process we cannot inspect
    /// counts as confined.
    static func isConfined(pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return true }
        for line in status.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0] == "Seccomp", parts[1] != "0" { return true }
            if parts[0] == "NoNewPrivs", parts[1] != "0" { return true }
        }
        return false
    }
}
