import Foundation
import HealthModel

/// A probing app's read permission in the leak matrix, set **per type**: the queried types
/// (heart rate, steps, effort scores) and the workout type each get their own decision, so a predicate naming
/// another app's workout is probed where the queried type is readable and the workout is not,
/// the reverse, one type revoked while the others stay, grants that expire or cover only a
/// window of the data. The other app's workout and its associations exist only in the hidden
/// world; every other sample exists in both.
enum MatrixState: String, CaseIterable, Sendable, CustomStringConvertible {
    case queriedAllowedWorkoutDenied = "queried-allowed-workout-denied"
    case queriedAllowedWorkoutNeverAsked = "queried-allowed-workout-never-asked"
    case workoutRevokedOthersStay = "workout-revoked-others-stay"
    case workoutExpiredOthersStay = "workout-expired-others-stay"
    /// Every type read through a 30-day window: the other app's recent samples are visible,
    /// its old ones and its (old) workout are not.
    case windowEverywhere = "window-everywhere"
    case queriedDeniedWorkoutAllowed = "queried-denied-workout-allowed"
    /// The workout is readable, but the samples associated with it are older than the window.
    case queriedWindowWorkoutAllowed = "queried-window-workout-allowed"
    /// The queried types fully readable, the workout type through a 30-day window that the
    /// (old) hidden workout lies outside of: the samples it holds are visible, it is not.
    case workoutWindowQueriedAllowed = "workout-window-queried-allowed"
    /// Positive control: the association is visible, so the worlds must differ.
    case everythingAllowed = "everything-allowed"
    /// Steps revoked while heart rate, effort scores and workouts stay: heart rate sees the
    /// association, steps not.
    case stepsRevokedOthersStay = "steps-revoked-others-stay"

    var description: String { rawValue }

    /// Every other state, and the rest: the leak matrix's two test cases.
    static let halves: [[MatrixState]] = [0, 1].map { half in allCases.enumerated().filter { $0.offset % 2 == half }.map(\.element) }

    var appID: String { "org.matrix.\(rawValue)" }

    static let queried = [ProbeData.heartRate, ProbeData.steps, ProbeData.effort]
    /// Blood pressure's member types, decided with the queried types (a correlation is visible
    /// only to a reader of both); correlation queries name the workout in a systolic predicate.
    static let correlated = [ProbeData.systolic, ProbeData.diastolic]
    static let workout = HKWorkoutTypeIdentifier
    static let temporaryGrantDuration: TimeInterval = 2

    var grantCommands: [[String]] {
        let grantQueried = ["grant", appID, "read"] + Self.queried + Self.correlated
        let grantWorkout = ["grant", appID, "read", Self.workout]
        switch self {
        case .queriedAllowedWorkoutDenied: return [grantQueried, ["revoke", appID, "read", Self.workout]]
        case .queriedAllowedWorkoutNeverAsked: return [grantQueried]
        case .workoutRevokedOthersStay: return [grantQueried, grantWorkout, ["revoke", appID, "read", Self.workout]]
        case .workoutExpiredOthersStay: return [grantQueried, grantWorkout + ["--for", "\(Int(Self.temporaryGrantDuration))s"]]
        case .windowEverywhere: return [grantQueried + [Self.workout, "--window", "30d"]]
        case .queriedDeniedWorkoutAllowed: return [["revoke", appID, "read"] + Self.queried + Self.correlated, grantWorkout]
        case .queriedWindowWorkoutAllowed: return [grantQueried + ["--window", "30d"], grantWorkout]
        case .workoutWindowQueriedAllowed: return [grantQueried, grantWorkout + ["--window", "30d"]]
        case .everythingAllowed: return [grantQueried, grantWorkout]
        case .stepsRevokedOthersStay: return [grantQueried, grantWorkout, ["revoke", appID, "read", ProbeData.steps]]
        }
    }

    /// Whether this app may read both sides of the hidden relation: the (old) hidden workout and
    /// the other app's (old) effort score related to it.
    var seesEffortOnTheHiddenWorkout: Bool { [.everythingAllowed, .stepsRevokedOthersStay].contains(self) }

    /// Whether this app may read the other app's old effort scores (effort read without a window):
    /// the one related to its own workout in the hidden world among them.
    var seesOtherEffortScores: Bool { ![.windowEverywhere, .queriedDeniedWorkoutAllowed, .queriedWindowWorkoutAllowed].contains(self) }

    /// The queried types for which this app may see the hidden workout *and* the other app's
    /// samples associated with it: only there may an answer naming that workout differ.
    var associationVisible: Set<String> {
        switch self {
        case .everythingAllowed: Set(Self.queried + Self.correlated)
        case .stepsRevokedOthersStay: [ProbeData.heartRate, ProbeData.systolic]
        default: []
        }
    }
}
