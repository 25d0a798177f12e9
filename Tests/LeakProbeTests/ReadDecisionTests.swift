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
        // Every world is a broker and a client of its own: all are built and probed at once (most
        // of a probe is waiting: for healthd, for the client, for a settling time), then compared
        // in order.
        let worlds = [(state: ProbeState.denied, hiddenAppReads: false)] + Self.variants
        let transcripts = try await withThrowingTaskGroup(of: (Int, [[String]]).self) { group in
            for (index, world) in worlds.enumerated() {
                group.addTask { (index, try await Self.transcript(world.state, hiddenAppReads: world.hiddenAppReads, steps: steps, names: names)) }
            }
            var transcripts = [[[String]]](repeating: [], count: worlds.count)
            for try await (index, transcript) in group { transcripts[index] = transcript }
            return transcripts
        }
        let baseline = transcripts[0]
        for (variant, transcript) in zip(Self.variants, transcripts.dropFirst()) {
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
