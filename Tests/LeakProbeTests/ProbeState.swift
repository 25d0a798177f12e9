import Foundation

/// The probing app's read permission for the probed types. Every state but `authorized` must
/// make the hidden app's data invisible, down to the byte; `authorized` is the positive
/// control, where the two worlds must differ.
enum ProbeState: String, CaseIterable, Sendable, CustomStringConvertible {
    case authorized
    case denied
    case neverAsked = "never-asked"
    case revoked
    /// A temporary grant whose duration has elapsed.
    case expired
    /// A read grant for the last 30 days; every hidden sample is years older, and so is every
    /// day with activity data (the user's goals show only on days inside the window).
    /// (Characteristics, which have no date, cannot take a window and are not granted.)
    case window

    var description: String { rawValue }

    /// The probing app in this state (one app per state, all in the same worlds).
    var appID: String { "org.probe.\(rawValue)" }

    /// How long the `expired` state's grant lasts; the probe waits this out before probing.
    static let temporaryGrantDuration: TimeInterval = 2

    /// The `healthctl` command lines that put `appID` in this state, run after it saved its
    /// own samples (with its share grant).
    var grantCommands: [[String]] { grantCommands(for: appID) }

    /// The same for the app `appID` (ReadDecisionTests puts each state on one app name).
    func grantCommands(for appID: String) -> [[String]] {
        let types = ProbeData.readTypes
        let grant = ["grant", appID, "read"] + types
        switch self {
        case .authorized: return [grant]
        case .denied: return [["revoke", appID, "read"] + types]
        case .neverAsked: return []
        case .revoked: return [grant, ["revoke", appID, "read"] + types]
        case .expired: return [grant + ["--for", "\(Int(Self.temporaryGrantDuration))s"]]
        // Windows apply to samples only; characteristics stay undecided (and so unreadable).
        case .window: return [["grant", appID, "read"] + ProbeData.sampleReadTypes + [ProbeData.activitySummary, "--window", "30d"]]
        }
    }

    var worldsMayDiffer: Bool { self == .authorized }
}
