import Foundation
import Testing

/// DESIGN.md §7.2, measured: nothing an app can observe reveals whether its read permission was
/// granted, denied, revoked, expired or windowed, nor what the user decided for another app.
/// Each world holds the probing app's own data and nobody else's, so there is nothing a read
/// grant could show; worlds differ in exactly one read decision, and the probing app (the same
/// app id in every world) must receive the same bytes for every probe step. Never asked differs
/// from asked only in the request status, which reports whether the app must still ask (as
/// HealthKit's does), not the answer. An `authorizationStatus` that reports the read decision,
/// or any query that branches on it, fails this.
@Suite(.timeLimit(.minutes(10)), .serialized) struct ReadDecisionTests {
    /// The worlds compared with the baseline (the app denied, the hidden app denied): one
    /// decision changed in each.
    static let variants: [(state: ProbeState, hiddenAppReads: Bool)] = [
        (.authorized, false), (.revoked, false), (.expired, false), (.window, false), (.neverAsked, false),
        (.denied, true),
    ]

    /// Steps whose answer may tell never-asked from asked.
    static let requestStatusSteps: Set<String> = ["request status, read heart rate", "request status, share and read"]

    @Test func noResponseByteRevealsAReadDecision() async throws {
        let steps = ProbeCatalog.all
        // The same made-up "hidden" UUIDs in every world: they name nothing in any of them.
        let names = HiddenObjects(samples: (0..<8).map { _ in UUID() })
        let baseline = try await Self.transcript(.denied, hiddenAppReads: false, steps: steps, names: names)
        for variant in Self.variants {
            let transcript = try await Self.transcript(variant.state, hiddenAppReads: variant.hiddenAppReads, steps: steps, names: names)
            let differing = steps.indices.filter { index in
                transcript[index] != baseline[index]
                    && !(variant.state == .neverAsked && Self.requestStatusSteps.contains(steps[index].name))
            }
            #expect(differing.isEmpty,
                    "read \(variant.state), hidden app \(variant.hiddenAppReads ? "granted" : "denied"): answers reveal the decision: \(differing.map { steps[$0].name })")
            for index in differing {
                print("\(variant.state) \(steps[index].name):\n  variant:  \(transcript[index])\n  baseline: \(baseline[index])")
            }
        }
    }

    static func transcript(_ state: ProbeState, hiddenAppReads: Bool, steps: [ProbeStep], names: HiddenObjects) async throws -> [[String]] {
        let world = try await ProbeWorld(decision: state, hiddenAppReads: hiddenAppReads)
        defer { world.stop() }
        if state == .expired { try await Task.sleep(for: .seconds(ProbeState.temporaryGrantDuration)) }
        return try await world.probe(state, steps: steps, hidden: names)
    }
}
