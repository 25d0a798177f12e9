import Foundation
import HealthModel
import HealthWire
import Testing

/// Issue 11: the leak matrix. Every query kind × every predicate kind × the queried types
/// (`MatrixCell.all`, generated), in every per-type permission state (`MatrixState`), compared
/// byte for byte between a world where another app's workout holds some of its samples and an
/// effort score of its own, and its other effort score rates the probing apps' workouts, and a
/// twin world where that workout and those relations never existed. A cell may differ only where
/// the app may read both sides of what it reaches (`MatrixCell.mayDiffer`: the workout *and* the
/// samples it holds, the workout *and* the related score, or the score related to its own
/// workout); there, every cell matching through them must differ (the positive control).
@Suite(.timeLimit(.minutes(10)), .serialized) struct LeakMatrixTests {
    /// One test case per half of the states (every other one), each with its own two worlds, so
    /// that each stays well inside the time limit on a loaded machine (the limit applies per
    /// case); the cases run one after the other.
    @Test(arguments: MatrixState.halves)
    func noAnswerDependsOnAWorkoutTheAppCannotSee(states: [MatrixState]) async throws {
        // The two worlds are separate brokers and client processes: built at once, as they are probed.
        async let hiddenBuilt = MatrixWorld(hidden: true)
        async let controlBuilt = MatrixWorld(hidden: false)
        let (hiddenWorld, controlWorld) = try await (hiddenBuilt, controlBuilt)
        defer { hiddenWorld.stop() }
        defer { controlWorld.stop() }
        let workout = try #require(hiddenWorld.hiddenWorkout)
        try await Task.sleep(for: .seconds(MatrixState.temporaryGrantDuration))

        let cells = MatrixCell.all
        var compared = 0
        for state in states {
            // The two worlds are separate brokers and client processes: probed at once.
            async let hiddenAnswers = hiddenWorld.probe(state, cells: cells, naming: workout)
            async let controlAnswers = controlWorld.probe(state, cells: cells, naming: workout)
            let (withHidden, without) = try await (hiddenAnswers, controlAnswers)
            for (index, cell) in cells.enumerated() {
                compared += 1
                if cell.mayDiffer(in: state) {
                    if cell.isPositiveControl {
                        #expect(withHidden[index] != without[index], "positive control, \(state): \(cell.name) must see the workout")
                    }
                } else {
                    #expect(withHidden[index] == without[index],
                            "\(state): \(cell.name)\n  hidden world:  \(withHidden[index])\n  control world: \(without[index])")
                }
            }
        }
        print("leak matrix: \(cells.count) cells × \(states.count) states = \(compared) comparisons")
        guard states.contains(.everythingAllowed) else { return }

        // Revoking the *workout* read grant under a running collection watch whose predicate
        // names the workout: the delivery that follows (woken by the grant change alone, no
        // save) leaves the app holding the collection a store without that workout gives. The
        // delivery itself may name the intervals it empties: the app saw them while allowed.
        async let hiddenWatch = hiddenWorld.revokingWorkoutUnderAWatch(.everythingAllowed, naming: workout)
        async let controlWatch = controlWorld.revokingWorkoutUnderAWatch(.everythingAllowed, naming: workout)
        let (hidden, control) = try await (hiddenWatch, controlWatch)
        #expect(Self.collection(hidden.initial) != Self.collection(control.initial),
                "positive control: with the workout readable the watch must see it")
        #expect(hidden.afterRevocation.count > hidden.initial.count, "no delivery after the workout grant was revoked")
        #expect(Self.collection(hidden.afterRevocation) == Self.collection(control.initial),
                "after revoking the workout grant the watch still holds data through it: \(hidden.afterRevocation)")
    }

    /// The collection an app holds after applying `lines` (watch deliveries) in order.
    static func collection(_ lines: [String]) -> [StatisticsResult] {
        var intervals: [Int64: StatisticsResult] = [:]
        for line in lines {
            guard let payload = ProbeTranscript.payload(of: line),
                  let delivery = try? StatisticsCollectionDelivery(wire: payload) else { continue }
            for start in delivery.emptiedStarts { intervals[start] = nil }
            for result in delivery.changed { intervals[result.span.start] = result }
        }
        return intervals.sorted { $0.key < $1.key }.map(\.value)
    }
}
