import Foundation
import HealthModel

/// The EFFORT column of `healthctl samples workout`: the effort scores apps related to each
/// workout (`relateWorkoutEffortSample`), the workout's own first, then each activity's by its
/// number in the workout — "7, estimated 5; activity 2: 9".
enum WorkoutEffortText {
    /// The column's text for each workout that has a related score, by workout UUID.
    static func column(for workouts: [SampleRecord], client: ManagerClient) async throws -> [UUID: String] {
        var column: [UUID: String] = [:]
        for workout in workouts {
            guard case let .workout(value) = workout.value else { continue }
            var parts: [String] = []
            let own = try await client.workoutEffortScores(of: workout.uuid, activity: nil)
            if !own.isEmpty { parts.append(scores(own)) }
            for (index, activity) in value.activities.enumerated() {
                let related = try await client.workoutEffortScores(of: workout.uuid, activity: activity.uuid)
                if !related.isEmpty { parts.append("activity \(index + 1): \(scores(related))") }
            }
            if !parts.isEmpty { column[workout.uuid] = parts.joined(separator: "; ") }
        }
        return column
    }

    /// "7", or "estimated 5" for Apple's estimate (estimatedWorkoutEffortScore), comma-separated.
    static func scores(_ samples: [SampleRecord]) -> String {
        samples.map { sample in
            guard case let .quantity(value, _) = sample.value else { return "?" }
            let number = NumberText.measurement(value)
            return sample.typeIdentifier == HKQuantityTypeIdentifier.estimatedWorkoutEffortScore.rawValue ? "estimated \(number)" : number
        }.joined(separator: ", ")
    }
}
