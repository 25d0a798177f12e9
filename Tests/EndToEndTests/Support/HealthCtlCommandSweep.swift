import Foundation
import HealthModel
import TestSupport

/// healthctl's commands, from its own ArgumentParser tree, each either run by
/// `HealthCtlHostileTextEndToEndTests` (how, in the hostile world) or named as one that only
/// changes state or asks, with why it shows nothing an app wrote.
enum HealthCtlCommandSweep {
    /// Every leaf command, as its path without "healthctl" ("medications list").
    static func leaves(_ broker: BrokerProcess) async throws -> [String] {
        let dump = try await broker.healthctl(["--experimental-dump-help"])
        guard let object = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any],
              let root = object["command"] as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
        var found: [String] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            let children = command["subcommands"] as? [[String: Any]] ?? []
            if children.isEmpty, !path.isEmpty { found.append(path.joined(separator: " ")) }
            for child in children {
                guard let name = child["commandName"] as? String else { continue }
                walk(child, path + [name])
            }
        }
        walk(root, [])
        return found
    }

    /// The commands that list or show data, each with the argument lists that run it.
    static let runs: [String: @Sendable (HostileWorld) -> [[String]]] = [
        "status": { _ in [["status"]] },
        "help": { _ in [["help"], ["help", "samples"]] },
        "apps list": { _ in [["apps", "list"]] },
        "apps background": { _ in [["apps", "background"]] },
        "apps storage": { _ in [["apps", "storage"], ["apps", "storage", "--bytes"]] },
        "requests": { _ in [["requests"]] },
        "object-requests": { _ in [["object-requests"]] },
        "object-grants": { world in [["object-grants", world.appID]] },
        "grants": { world in [["grants", world.appID]] },
        "samples": { world in world.types.flatMap { [["samples", $0], ["samples", $0, "--json"]] } },
        "chart": { _ in [["chart", "stepCount", "--from", "2023-11-01", "--to", "2023-11-30"]] },
        "sources list": { _ in [["sources", "list"], ["sources", "list", "stepCount"]] },
        "log list": { world in [["log", "list"], ["log", "list", "--json"], ["log", "list", "--app", world.appID]] },
        "log verify": { _ in [["log", "verify"]] },
        "characteristics show": { _ in [["characteristics", "show"]] },
        "units show": { _ in [["units", "show"]] },
        "medications list": { _ in [["medications", "list"], ["medications", "list", "--archived"]] },
        "activity goals show": { _ in [["activity", "goals", "show"]] },
        "activity summary": { _ in [["activity", "summary"]] },
        "attachments list": { world in [["attachments", "list", world.glasses.uuidString]] },
        "report": { _ in [["report", "--html", NSTemporaryDirectory() + "hostile-report-\(UUID().uuidString).html",
                           "--from", "2023-11-01", "--to", "2023-11-30"]] },
        "export": { world in [["export", NSTemporaryDirectory() + "hostile-export-\(UUID().uuidString).jsonl", "--format", "json"]] },
    ]

    /// Commands that change state or ask for a secret, and print only what the user typed or a
    /// count; none of them prints what an app wrote.
    static let notShowing: [String: String] = [
        "apps install": "reads the user's manifest file; prints its own problems (escaped by the sink)",
        "apps remove": "deletes an app",
        "apps allow-direct": "sets a flag", "apps deny-direct": "sets a flag",
        "apps allow-network": "sets a flag", "apps deny-network": "sets a flag",
        "grant": "changes a grant", "revoke": "changes a grant",
        "key rotate": "re-encrypts the store", "lock": "locks the store", "unlock": "asks for the passcode",
        "passcode set": "asks for a passcode", "passcode change": "asks for a passcode", "passcode remove": "asks for a passcode",
        "sources priority": "reorders sources",
        "characteristics set": "sets the user's characteristic", "characteristics unset": "removes it",
        "units set": "sets a preferred unit", "units reset": "resets preferred units",
        "medications add": "adds the user's medication", "medications archive": "archives one", "medications log-dose": "logs a dose",
        "activity goals set": "sets goals",
        "import": "reads the user's export file into the store",
        "add": "adds the user's sample", "delete": "deletes samples",
        "attachments delete": "deletes an attachment", "attachments save": "writes an attachment's bytes to the user's file",
    ]
}
