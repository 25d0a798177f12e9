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
    /// Where a manager tool's path is looked up, within a time bound — the same rule as an
    /// installed app's (`AppPeerResolver.executables`), with lookups of its own: a hung app path
    /// does not take the room of the user's tools.
    var executables = ExecutableLookups()

    /// Why `peer` may not use the admin socket, nil if it may. Runs on a connection-admission
    /// worker (`ConnectionAdmission`), never on the admin socket's accept thread.
    func refusal(for peer: PeerCredentials) -> String? {
        guard peer.uid == brokerUID else { return "the admin socket accepts only uid \(brokerUID), not \(peer.uid)" }
        // The peer's path is looked up only when it is one of the trusted tools' paths: a path
        // only the peer chose is never walked. That lookup may still wait on a mount that stopped
        // answering (a tool installed on NFS, a FUSE mount laid over its folder): bounded
        // (`ExecutableLookups`), past which the peer is refused naming the file system.
        let runs: Bool
        do throws(ExecutableLookups.NotAnswering) {
            if let executable = peer.executablePath, trustedExecutables.contains(executable) {
                runs = try executables.runs(peer, executable)
            } else {
                runs = false
            }
        } catch {
            return "healthd could not look up the manager tool \(error.executable): its file system did not answer within \(error.timeout) "
                + "(a FUSE or network mount that stopped answering?); make it answer"
        }
        guard runs else {
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
