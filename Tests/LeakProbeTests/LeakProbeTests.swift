import Foundation
import Testing

/// DESIGN.md §7.3, measured: for every permission state and every probe step, the raw response
/// bytes a probing app receives are identical whether or not another app's data exists — after
/// the values the broker makes up afresh in each world (its own UUIDs, anchors' random nonces,
/// observer ids) are replaced by placeholders. The authorized state is the positive control:
/// there the worlds must differ, for every kind of query, or the probe could not see a leak.
@Suite(.timeLimit(.minutes(10)), .serialized) struct LeakProbeTests {
    @Test func noResponseByteDependsOnHiddenData() async throws {
        // The two worlds are separate brokers and client processes: built and probed at once
        // (most of a probe is waiting: for healthd, for a client, for a settling time).
        async let hiddenBuilt = ProbeWorld(hidden: true)
        async let controlBuilt = ProbeWorld(hidden: false)
        let (hiddenWorld, controlWorld) = try await (hiddenBuilt, controlBuilt)
        defer { hiddenWorld.stop() }
        defer { controlWorld.stop() }
        // The `expired` state's grant must have lapsed in both worlds before anything is probed.
        try await Task.sleep(for: .seconds(ProbeState.temporaryGrantDuration))

        for state in ProbeState.allCases {
            let steps = state.steps
            async let hiddenAnswers = hiddenWorld.probe(state, steps: steps, hidden: hiddenWorld.hiddenObjects)
            async let controlAnswers = controlWorld.probe(state, steps: steps, hidden: hiddenWorld.hiddenObjects)
            let (withHidden, without) = try await (hiddenAnswers, controlAnswers)
            let differing = steps.indices.filter { withHidden[$0] != without[$0] }.map { steps[$0].name }
            // Naming another app's object looks like naming nothing: to change it in every state,
            // to read through it wherever the app may not read it.
            // (The record-rule states run only the record kinds' steps, which hold no twins.)
            let pairs = ProbeState.recordRuleStates.contains(state) ? []
                : ProbeCatalog.changeTwins + (state.worldsMayDiffer ? [] : ProbeCatalog.readTwins)
            for (hidden, fresh) in pairs {
                let index = { (name: String) in steps.firstIndex { $0.name == name }! }
                #expect(withHidden[index(hidden)] == withHidden[index(fresh)], "\(state): \(hidden) vs \(fresh)")
            }
            if state.worldsMayDiffer {
                let blind = ProbeCatalog.positiveControls.filter { !differing.contains($0) }
                #expect(blind.isEmpty, "positive control: with read permission these must see the hidden data: \(blind)")
            } else {
                #expect(differing.isEmpty, "\(state): responses depend on hidden data: \(differing)")
                for index in steps.indices where withHidden[index] != without[index] {
                    print("\(state) \(steps[index].name):\n  hidden world:  \(withHidden[index])\n  control world: \(without[index])")
                }
            }
        }
    }
}
