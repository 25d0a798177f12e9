import Foundation
import Testing

/// DESIGN.md §7.3 for the values a workout carries about other types: a workout's totals and
/// statistics are computed from samples of their quantity types (Apple: "HealthKit calculates
/// an HKStatistics object … based on the HKQuantitySample objects associated with the
/// workout"), so a reader allowed workouts but not active energy (or distance, or heart rate)
/// must get, byte for byte, what it would get had the other app saved its workout without
/// that type's values — in every read kind and every predicate on those values, NOT included.
/// Its own workout keeps every value. A reader of every type is the positive control.
@Suite(.timeLimit(.minutes(10)), .serialized) struct WorkoutValueRedactionTests {
    @Test func valuesOfUnreadableTypesLookAbsent() async throws {
        let steps = ProbeCatalog.workoutValueSteps
        let full = try await WorkoutValueWorld(otherWorkoutWithout: nil)
        defer { full.stop() }
        let fullAllReadable = try await full.probe(.allReadable, steps: steps)
        for state in WorkoutValueState.deniedStates {
            let twin = try await WorkoutValueWorld(otherWorkoutWithout: state.denied)
            defer { twin.stop() }
            let withValues = try await full.probe(state, steps: steps)
            let withoutValues = try await twin.probe(state, steps: steps)
            for index in steps.indices where withValues[index] != withoutValues[index] {
                Issue.record("\(state) \(steps[index].name):\n  with the values:  \(withValues[index])\n  twin without:     \(withoutValues[index])")
            }
            // The app's own workout keeps every value, the denied type's included.
            let ownValues = [WorkoutValueData.ownEnergy, WorkoutValueData.ownDistance, WorkoutValueData.ownHeartRateMaximum]
            let everyWorkout = withValues[steps.firstIndex { $0.name == "values: every workout" } ?? 0].joined()
            for value in ownValues {
                #expect(everyWorkout.contains(WorkoutValueData.wireHex(value)), "\(state): its own workout lost the value \(value)")
            }
            // Positive control: a reader of every type sees the values the twin lacks.
            let twinAllReadable = try await twin.probe(.allReadable, steps: steps)
            for name in ProbeCatalog.workoutValuePositiveControls {
                guard let index = steps.firstIndex(where: { $0.name == name }) else { Issue.record("no step \(name)"); continue }
                #expect(fullAllReadable[index] != twinAllReadable[index], "positive control without \(state.denied ?? ""): \(name)")
            }
        }
    }
}
