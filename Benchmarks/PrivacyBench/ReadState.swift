import Foundation
import HealthModel

/// The probing app's read permission on every type a cell reads, set in the store between runs
/// of healthd (`BenchStoreBuilder.apply`). Never asked gives the same scope as denied
/// (`.ownSamples`), so it is not a row of its own.
enum ReadState: String, CaseIterable, Sendable {
    case denied
    /// Authorized, then denied: the grant row the user's revocation leaves.
    case revoked
    /// Authorized for the last 30 days only (`.recentWindow`); every hidden sample is older.
    case window
    /// Reads everything: the reference row, where the hidden data is the app's to see and the
    /// times may legitimately differ.
    case authorized

    var label: String {
        switch self {
        case .denied: "denied"
        case .revoked: "revoked"
        case .window: "30-day window"
        case .authorized: "authorized (ref.)"
        }
    }

    /// Whether the app may see the other app's data, so results and times may differ by world.
    var seesHidden: Bool { self == .authorized }

    struct GrantStep {
        let decision: AuthorizationDecision
        let limits: GrantLimits
    }

    /// The decisions applied in order, from no grant at all.
    var grantSteps: [GrantStep] {
        switch self {
        case .denied: [GrantStep(decision: .denied, limits: .none)]
        case .revoked: [GrantStep(decision: .authorized, limits: .none), GrantStep(decision: .denied, limits: .none)]
        case .window: [GrantStep(decision: .authorized, limits: GrantLimits(dataWindow: 30 * 86_400))]
        case .authorized: [GrantStep(decision: .authorized, limits: .none)]
        }
    }
}
