import Testing
@testable import HealthKit

/// Apple's workout-session state machine (`WorkoutSessionTransitions`): every command from
/// every state, against the table HealthKit documents
/// (developer.apple.com/documentation/healthkit/hkworkoutsessionstate, hkhealthstore/pause(_:)).
@Suite(.timeLimit(.minutes(10))) struct WorkoutSessionTransitionTests {
    typealias Command = WorkoutSessionTransitions.Command

    /// The legal moves; every (command, state) pair not listed is illegal.
    static let legal: [String: WorkoutSessionTransitions.Outcome] = [
        "prepare notStarted": .move([.prepared]),
        "startActivity notStarted": .move([.running]),
        "startActivity prepared": .move([.running]),
        "pause running": .move([.paused]),
        "pause paused": .ignore,
        "resume paused": .move([.running]),
        "resume running": .ignore,
        "stopActivity running": .move([.stopped]),
        "stopActivity paused": .move([.stopped]),
        "end running": .move([.stopped, .ended]),
        "end paused": .move([.stopped, .ended]),
        "end prepared": .move([.ended]),
        "end stopped": .move([.ended]),
    ]

    @Test(arguments: [Command.prepare, .startActivity, .pause, .resume, .stopActivity, .end])
    func everyCommandFromEveryState(_ command: Command) {
        for state in HKWorkoutSessionState.allCases {
            let expected = Self.legal["\(command.rawValue) \(state)"] ?? .illegal
            #expect(WorkoutSessionTransitions.outcome(of: command, in: state) == expected, "\(command) from \(state)")
        }
    }

    @Test func nothingLeavesEnded() {
        for command in [Command.prepare, .startActivity, .pause, .resume, .stopActivity, .end] {
            #expect(WorkoutSessionTransitions.outcome(of: command, in: .ended) == .illegal)
        }
    }
}
