import Foundation
import HealthModel
import HealthWire
import TestSupport

/// One broker for `WorkoutValueRedactionTests`: another app (`otherApp`) saves its workouts —
/// with every value, or the twins without the values of one type (`WorkoutValueData.otherWorkouts`)
/// — then each probing app (`WorkoutValueState`) saves its own workout and gets its read grants.
/// Everything but the other app's workout is the same in every world, and every world is probed
/// by every state in the same order (`probeAll`): the probing apps see each other's workouts,
/// and the ones they save while probed.
final class WorkoutValueWorld: Sendable {
    static let otherApp = "org.wkvalue.other"

    let broker: BrokerProcess
    /// What the other app's save was answered with: minted afresh in each world, so replaced by
    /// placeholders before comparing.
    let otherUUIDs: [UUID]
    /// Each probing app's own UUIDs from its set-up save, by app id.
    let ownUUIDs: [String: [UUID]]

    /// `without`: the type whose values the other app's workout lacks (nil: it has them all).
    init(otherWorkoutWithout type: String?) async throws {
        broker = try BrokerProcess()
        for app in [Self.otherApp] + WorkoutValueState.allCases.map(\.appID) {
            try await broker.install(appID: app, executable: ProbeWorld.client)
            for type in WorkoutValueData.shareTypes { try await broker.set(app, "share", type, allowed: true) }
        }
        let other = try ProbeSession(Self.otherApp, adminSocket: broker.adminSocket)
        otherUUIDs = try await ProbeData.save(WorkoutValueData.otherWorkouts(without: type), through: other)
        try await other.finish()
        var own: [String: [UUID]] = [:]
        for state in WorkoutValueState.allCases {
            let session = try ProbeSession(state.appID, adminSocket: broker.adminSocket)
            own[state.appID] = try await ProbeData.save([WorkoutValueData.ownWorkout(from: 10, to: 40)], through: session)
            try await session.finish()
            for command in state.grantCommands {
                let result = try await broker.healthctl(command)
                guard result.status == 0 else { throw CommandFailed(result: result) }
            }
        }
        ownUUIDs = own
    }

    /// Runs `steps` as every state's app in turn (`WorkoutValueState.allCases` order); returns
    /// what each state of `compared` received with every UUID minted in this world replaced: the
    /// app's own by `<own-N>`, every other app's (the other app's, other probing apps' set-up and
    /// probe saves) by `<granted-N>`, in the order they were minted, which is the same in every
    /// world. A state not `compared` makes only its saves, so the store every later state reads
    /// is the same in every world whichever states each compares (a twin world needs only the
    /// denied state and the positive control: a third of the probing).
    func probeAll(steps: [ProbeCall], compared: Set<WorkoutValueState> = Set(WorkoutValueState.allCases)) async throws -> [WorkoutValueState: [[String]]] {
        var minted = otherUUIDs + WorkoutValueState.allCases.flatMap { ownUUIDs[$0.appID] ?? [] }
        var transcripts: [WorkoutValueState: [[String]]] = [:]
        for state in WorkoutValueState.allCases {
            let (transcript, own) = try await probe(state, steps: compared.contains(state) ? steps : steps.filter { $0.method == .save })
            minted += own.filter { !minted.contains($0) }
            if compared.contains(state) { transcripts[state] = transcript.normalized(own: own, granted: minted.filter { !own.contains($0) }) }
        }
        return transcripts
    }

    /// Runs `steps` as `state`'s app; returns what it received and its own UUIDs, in save order.
    private func probe(_ state: WorkoutValueState, steps: [ProbeCall]) async throws -> (ProbeTranscript, [UUID]) {
        let app = state.appID
        let session = try ProbeSession(app, adminSocket: broker.adminSocket)
        var own = ownUUIDs[app] ?? []
        var anchors: [String: [UInt8]] = [:]
        var observerUpdates: [String: ObserverDelivery] = [:]
        var seen: [String: Int] = [:]
        var transcript = ProbeTranscript()
        for call in steps {
            let inputs = ProbeInputs(probingApp: app, hiddenApp: Self.otherApp, ownUUIDs: own, ownWorkout: own.last ?? UUID(),
                                     hidden: HiddenObjects(), anchors: anchors, observerUpdates: observerUpdates)
            let lines: [String]
            if case let .watch(stream, expectingMore) = call.shape {
                lines = try await look(at: stream, in: session, after: seen[stream] ?? 0, expectingMore: expectingMore)
                seen[stream] = lines.count
                if let update = ProbeTranscript.lastObserverUpdate(lines) { observerUpdates[stream] = update }
            } else if let command = call.command(inputs) {
                lines = try await session.run(command)
            } else {
                lines = []
            }
            if call.method == .save { own += ProbeTranscript.savedUUIDs(lines) }
            if call.method == .queryAnchored, let anchor = ProbeTranscript.lastAnchor(lines) { anchors[call.name] = anchor }
            transcript.append(lines, method: call.method)
        }
        try await session.finish()
        return (transcript, own)
    }

    func stop() { broker.stop() }

    /// The open stream's messages so far, after waiting (bounded: a hang guard) for one beyond
    /// `before` when one must come, then the settling time in which a leaked one would arrive.
    private func look(at stream: String, in session: ProbeSession, after before: Int, expectingMore: Bool) async throws -> [String] {
        if expectingMore {
            let deadline = Date().addingTimeInterval(ProbeWorld.deliveryTimeout)
            while session.watched(stream).count == before, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        }
        try await Task.sleep(for: ProbeWorld.settlingTime)
        return session.watched(stream)
    }
}
