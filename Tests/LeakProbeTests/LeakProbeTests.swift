import Foundation
import Testing

/// DESIGN.md §7.3, measured: for every permission state and every probe call, the raw response
/// bytes a probing app receives are identical whether or not another app's data exists — after
/// its own broker-assigned UUIDs are replaced by their save order. The authorized state is the
/// positive control: there the worlds must differ, or the probe could not see a leak at all.
@Suite(.serialized) struct LeakProbeTests {
    @Test func noResponseByteDependsOnHiddenData() async throws {
        let hiddenWorld = try await ProbeWorld(hidden: true)
        defer { hiddenWorld.stop() }
        let controlWorld = try await ProbeWorld(hidden: false)
        defer { controlWorld.stop() }
        // The `expired` state's grant must have lapsed in both worlds before anything is probed.
        try await Task.sleep(for: .seconds(ProbeState.temporaryGrantDuration))

        let calls = ProbeCatalog.all
        for state in ProbeState.allCases {
            let withHidden = try await hiddenWorld.probe(state, calls: calls, hiddenUUIDs: hiddenWorld.hiddenUUIDs)
            let without = try await controlWorld.probe(state, calls: calls, hiddenUUIDs: hiddenWorld.hiddenUUIDs)
            let differing = calls.indices.filter { withHidden[$0] != without[$0] }.map { calls[$0].name }
            if state.worldsMayDiffer {
                #expect(!differing.isEmpty, "positive control: with read permission the hidden data must be visible")
                #expect(differing.contains("heart rate, default order"), "\(differing)")
            } else {
                #expect(differing.isEmpty, "\(state): responses depend on hidden data: \(differing)")
            }
        }
    }
}
