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
        // The peer's path is looked up (`runs`) only when it is one of the trusted tools' paths:
        // a path only the peer chose is never walked on the accept path.
        guard let executable = peer.executablePath, trustedExecutables.contains(executable), peer.runs(executable) else {
            let named = peer.executablePath.flatMap { trustedExecutables.contains($0) ? nil : $0 }
            return "the admin socket accepts only the manager tools (\(trustedExecutables.sorted().joined(separator: ", "))), not \(named ?? "an unverifiable executable")"
        }
        // Read with the executable while the connecting process was pinned (PeerCredentials.of),
        // never again here by pid: that process may have exited and its pid been reused.
        if peer.confined {
            return "the admin socket does not accept confined (sandboxed) processes"
        }
        return nil
    }
}
