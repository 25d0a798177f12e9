import Foundation
import Testing

/// DESIGN.md §7.3 for the values a workout carries about other types: a workout's totals and
/// statistics are computed from samples of their quantity types (Apple: "HealthKit calculates
/// an HKStatistics object … based on the HKQuantitySample objects associated with the
/// workout"), so a reader allowed workouts but not active energy (or walking and running
/// distance, heart rate, a row's distance — iOS 18's `distanceRowing` —, or one leg's distance of
/// a triathlon) must get, byte for byte, what it would get had the other app saved its workouts
/// without that type's values — in every read kind, every predicate on those values (NOT
/// included) and the sort by total distance. Its own workout keeps every value. A reader of
/// every type is the positive control.
@Suite(.timeLimit(.minutes(10)), .serialized) struct WorkoutValueRedactionTests {
    @Test func valuesOfUnreadableTypesLookAbsent() async throws {
        let steps = ProbeCatalog.workoutValueSteps
        // Every world is a broker and clients of its own: all are built and probed at once, then
        // compared in order. A twin world is probed in its denied state and the positive control
        // only: the states it is compared in.
        let worlds: [WorkoutValueState?] = [nil] + WorkoutValueState.deniedStates
        let probed = try await withThrowingTaskGroup(of: (Int, [WorkoutValueState: [[String]]]).self) { group in
            for (index, state) in worlds.enumerated() {
                group.addTask {
                    let world = try await WorkoutValueWorld(otherWorkoutWithout: state?.denied)
                    defer { world.stop() }
                    guard let state else { return (index, try await world.probeAll(steps: steps)) }
                    return (index, try await world.probeAll(steps: steps, compared: [state, .allReadable]))
                }
            }
            var probed = [[WorkoutValueState: [[String]]]](repeating: [:], count: worlds.count)
            for try await (index, transcripts) in group { probed[index] = transcripts }
            return probed
        }
        let withValues = probed[0]
        for (state, withoutValues) in zip(WorkoutValueState.deniedStates, probed.dropFirst()) {
            let probed = withValues[state] ?? [], twinProbed = withoutValues[state] ?? []
            #expect(probed.count == steps.count && twinProbed.count == steps.count)
            for index in steps.indices where probed[index] != twinProbed[index] {
                Issue.record("\(state) \(steps[index].name):\n  with the values:  \(probed[index])\n  twin without:     \(twinProbed[index])")
            }
            // The app's own workout keeps every value, the denied type's included.
            let everyWorkout = probed[steps.firstIndex { $0.name == "values: every workout" } ?? 0].joined()
            for value in [WorkoutValueData.ownEnergy, WorkoutValueData.ownDistance, WorkoutValueData.ownHeartRateMaximum] {
                #expect(everyWorkout.contains(WorkoutValueData.wireHex(value)), "\(state): its own workout lost the value \(value)")
            }
            // Positive control: a reader of every type sees the values the twin lacks.
            let readerOfAll = withValues[.allReadable] ?? [], twinReaderOfAll = withoutValues[.allReadable] ?? []
            for name in ProbeCatalog.workoutValuePositiveControls(without: state.denied ?? "") {
                guard let index = steps.firstIndex(where: { $0.name == name }) else { Issue.record("no step \(name)"); continue }
                #expect(readerOfAll[index] != twinReaderOfAll[index], "positive control without \(state.denied ?? ""): \(name)")
            }
        }
    }
}
