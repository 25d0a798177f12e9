import ArgumentParser
import Foundation
import HealthModel
import HealthWire

/// `healthctl status`: is healthd up, where does it keep things, how busy is it.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show healthd's status: store, sockets, apps, pending requests, samples.",
        discussion: """
            Example:
              healthctl status
            """)

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let client = try connection.connect()
        defer { client.close() }
        let status = try await client.status()
        CommandIO.current.output.write(Self.render(status))
    }

    static func render(_ status: BrokerStatus) -> String {
        let rows: [(String, String)] = [
            ("Service", serviceLine(status.service)),
            ("Confinement", confinementLine(status.confinement)),
            ("healthd version", status.version.isEmpty ? "unknown" : status.version),
            ("Store directory", status.storeDirectory),
            ("Store", status.readOnlyReason.isEmpty ? "writable" : "read-only: \(status.readOnlyReason)"),
            ("Locked", status.locked ? "yes (healthctl unlock); saves are kept until then" : "no"),
            ("App socket", status.appSocket),
            ("Admin socket", status.adminSocket),
            ("Installed apps", "\(status.installedApps)"),
            ("Pending requests", "\(status.pendingRequests)"),
            ("Connected apps", "\(status.connectedApps)"),
            // Multi-frame answers read again because an object their reader could see left the
            // store or its grants changed while they waited (SECURITY.md "A second reading is
            // bounded by the first"); end-to-end tests count readings again by it.
            ("Answers read again", "\(status.answersReadAgain)"),
            ("Samples", status.locked ? "unknown while locked" : "\(status.sampleCount)"),
            ("Store size", ByteCountFormatter.string(fromByteCount: Int64(status.storeBytes), countStyle: .file)),
            ("Watch slot visits", "\(status.longRunningSlotVisits)"),
            ("Watch computations", "\(status.watchComputations)"),
            ("Last backup/export", (status.lastExport ?? ExportHistory.last()?.date).map { $0.formatted(date: .abbreviated, time: .shortened) } ?? "never"),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { label, value in
            label + ":" + String(repeating: " ", count: width - label.count + 2) + value + "\n"
        }.joined() + damagedJournalsSection(status.damagedJournals)
    }

    /// Each pending journal a merge kept as damaged: where it is, its size, what its merge lost
    /// and what the user can do. Nothing when there is none. The file's key went with the
    /// merge, so nothing can read it again: the user's choice is to look for what is missing
    /// in the apps and then remove the file.
    static func damagedJournalsSection(_ journals: [DamagedPendingJournal]) -> String {
        guard !journals.isEmpty else { return "" }
        var text = "Damaged journals: \(journals.count) kept (saves made while the store was locked that could not all be merged)\n"
        for journal in journals {
            let kept = journal.kept.map { ", kept " + $0.formatted(date: .abbreviated, time: .shortened) } ?? ""
            text += "  \(TerminalText.shown(journal.path)) (\(journal.bytes) bytes\(kept))\n"
            text += "    lost: " + (journal.lost.isEmpty ? "not recorded (see healthd's log from when it was merged)" : TerminalText.shown(journal.lost)) + "\n"
        }
        text += "  What to do: nothing can merge or read these files again (each one's key was removed when the rest "
            + "of it merged). Open the apps that saved while the store was locked and check their recent data; save "
            + "again from them what is missing. Then remove the files: "
            + journals.map { "rm " + shellQuoted($0.path) + " " + shellQuoted($0.path + ".lost") }.joined(separator: "; ") + "\n"
        return text
    }

    /// `path` in single quotes for a shell, quotes inside it written as '\''.
    private static func shellQuoted(_ path: String) -> String {
        "'" + TerminalText.shown(path).replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// "files walled in (Landlock ABI 7), seccomp filter, peer inspector answering": what keeps a
    /// bug in healthd's request handling in, and whether healthd can identify who connects. What
    /// is missing is said in capitals, with what it costs.
    static func confinementLine(_ confinement: BrokerStatus.Confinement) -> String {
        if confinement == BrokerStatus.Confinement() { return "not reported by this healthd" }
        let files = confinement.landlockABI > 0
            ? "files walled in (Landlock ABI \(confinement.landlockABI))"
            : "files NOT walled in (\(confinement.landlockMissingReason.isEmpty ? "no reason given" : confinement.landlockMissingReason))"
        let seccomp = confinement.seccompFiltered ? "seccomp filter" : "NO seccomp filter"
        let inspector = switch confinement.peerInspector {
        case .answering: "peer inspector answering"
        case .inProcess: "peers read from /proc by healthd itself"
        case .gone: "peer inspector GONE: every connection is refused until healthd restarts"
        case .unspecified: "peer inspector not reported"
        }
        return [files, seccomp, inspector].joined(separator: ", ")
    }

    /// "running (pid N, socket-activated, exits after 300 s idle)": whoever answered the status
    /// call is running; how it was started says whether it comes back by itself.
    static func serviceLine(_ service: BrokerStatus.ServiceState) -> String {
        var parts = service.processID > 0 ? ["pid \(service.processID)"] : []
        if service.socketActivated {
            parts.append("socket-activated")
            parts.append(service.idleExitSeconds > 0 ? "exits after \(service.idleExitSeconds) s idle, restarts on demand" : "no idle exit")
        } else {
            parts.append("started directly, not by systemd")
        }
        return "running (" + parts.joined(separator: ", ") + ")"
    }
}
