import Foundation
import HealthModel

/// A probing app of `WorkoutValueRedactionTests`: allowed to read workouts and every quantity
/// type a workout's totals and statistics derive from, except one (`denied`), one type at a time;
/// `allReadable` denies none and is the positive control.
enum WorkoutValueState: String, CaseIterable, Sendable, CustomStringConvertible {
    case allReadable = "all-readable"
    case energyDenied = "energy-denied"
    case distanceDenied = "distance-denied"
    case heartRateDenied = "heart-rate-denied"
    /// The type of the row's distance (iOS 18), which a walking and running distance grant does not cover.
    case rowingDistanceDenied = "rowing-distance-denied"
    /// The type of one leg of the triathlon: its total distance sums every leg's.
    case cyclingDistanceDenied = "cycling-distance-denied"

    var description: String { rawValue }
    var appID: String { "org.wkvalue.\(rawValue)" }

    /// The quantity type whose read this app is refused (nil: none).
    var denied: String? {
        switch self {
        case .allReadable: nil
        case .energyDenied: WorkoutValueData.energy
        case .distanceDenied: WorkoutValueData.distance
        case .heartRateDenied: WorkoutValueData.heartRate
        case .rowingDistanceDenied: WorkoutValueData.rowingDistance
        case .cyclingDistanceDenied: WorkoutValueData.cyclingDistance
        }
    }

    static let deniedStates: [WorkoutValueState] = allCases.filter { $0.denied != nil }

    /// Read granted on workouts and every value type but `denied`, which is explicitly revoked
    /// (denied and never asked look the same, DESIGN.md §7.2).
    var grantCommands: [[String]] {
        let granted = [HKWorkoutTypeIdentifier] + WorkoutValueData.valueTypes.filter { $0 != denied }
        return [["grant", appID, "read"] + granted] + (denied.map { [["revoke", appID, "read", $0]] } ?? [])
    }
}
