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
    // The record kinds' own rules, one dimension changed from `authorized` in each; these
    // states run only the steps of the kind whose rule they change (`steps`): every other
    // type stays readable, as in `authorized`.
    /// Clinical: read granted, but the manifest lacks the health-records entitlement.
    case clinicalUnentitled = "clinical-unentitled"
    /// Clinical: entitled, but the clinical types' read is denied.
    case clinicalUngranted = "clinical-ungranted"
    /// Vision: no per-object grant at all.
    case visionUngranted = "vision-ungranted"
    /// Vision: a per-object grant for another prescription (the `authorized` app's own), not the hidden one.
    case visionOtherObject = "vision-other-object"
    /// Vision: the hidden prescription granted, then the grant revoked (`healthctl object-grants --revoke-all`).
    case visionRevoked = "vision-revoked"

    var description: String { rawValue }

    /// The states that vary one of the record kinds' rules.
    static let recordRuleStates: [ProbeState] = [.clinicalUnentitled, .clinicalUngranted, .visionUngranted, .visionOtherObject, .visionRevoked]

    /// What this state's app runs: every step, or the steps over the one kind whose rule the
    /// state changes (over other types it is `authorized`, where the worlds differ).
    var steps: [ProbeStep] {
        switch self {
        case .clinicalUnentitled, .clinicalUngranted: ProbeCatalog.clinicalSteps
        case .visionUngranted, .visionOtherObject, .visionRevoked: ProbeCatalog.visionSteps
        default: ProbeCatalog.all
        }
    }

    /// Whether the app's manifest carries the health-records entitlement clinical reads need.
    var healthRecordsEntitled: Bool { self != .clinicalUnentitled }

    /// The per-object read grants (vision prescriptions) this state's app holds, given the
    /// hidden world's objects (`hiddenWorld` false: the control world, where they do not exist)
    /// and the other probing apps' own UUIDs.
    func objectGrant(hidden: HiddenObjects, hiddenWorld: Bool, ownUUIDs: [String: [UUID]]) -> ObjectGrant? {
        switch self {
        case .authorized: return ObjectGrant(allow: hiddenWorld ? [hidden.prescription] : [], revokeAfterwards: false)
        case .visionRevoked: return ObjectGrant(allow: hiddenWorld ? [hidden.prescription] : [], revokeAfterwards: true)
        case .visionOtherObject:
            return ObjectGrant(allow: ownUUIDs[ProbeState.authorized.appID].flatMap(ProbeData.ownPrescription).map { [$0] } ?? [],
                               revokeAfterwards: false)
        default: return nil
        }
    }

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
        case .authorized, .clinicalUnentitled, .visionUngranted, .visionOtherObject, .visionRevoked: return [grant]
        case .clinicalUngranted:
            return [["grant", appID, "read"] + types.filter { !ProbeData.clinicalTypes.contains($0) }, ["revoke", appID, "read"] + ProbeData.clinicalTypes]
        case .denied: return [["revoke", appID, "read"] + types]
        case .neverAsked: return []
        case .revoked: return [grant, ["revoke", appID, "read"] + types]
        case .expired: return [grant + ["--for", "\(Int(Self.temporaryGrantDuration))s"]]
        // Windows apply to samples only; characteristics stay undecided (and so unreadable).
        // Documents are read by the user's picks and take no window (`GrantLimitsCheck`).
        case .window:
            let windowed = ProbeData.sampleReadTypes + ProbeData.recordReadTypes.filter { $0 != ProbeData.cda } + [ProbeData.activitySummary]
            return [["grant", appID, "read"] + windowed + ["--window", "30d"], ["grant", appID, "read", ProbeData.cda]]
        }
    }

    var worldsMayDiffer: Bool { self == .authorized }
}

/// A per-object read answer: the user allows `allow` (possibly nothing) in answer to the app's
/// request for vision prescriptions, and may revoke it all afterwards.
struct ObjectGrant: Sendable {
    let allow: [UUID]
    let revokeAfterwards: Bool
}
