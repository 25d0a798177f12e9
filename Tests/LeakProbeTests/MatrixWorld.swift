import Foundation
import HealthModel
import HealthWire
import TestSupport

/// One broker of the leak matrix: the other app and one probing app per `MatrixState`, with
/// the other app's workout only if `hidden`. Runs every cell for a state in one client session.
final class MatrixWorld: Sendable {
    let broker: BrokerProcess
    let otherUUIDs: [UUID]
    /// The other app's workout, saved in the hidden world only (nil in the control world, which
    /// is probed naming the hidden world's).
    let hiddenWorkout: UUID?
    let ownUUIDs: [String: [UUID]]
    /// How many long-running streams one session holds open at once.
    static let streamsPerWave = 12
    /// How the probe client prints healthd's refusal of a long-running query over the app's
    /// budget: status 8 (resource exhausted).
    static let budgetRefusal = "status 8 "

    init(hidden: Bool) async throws {
        broker = try BrokerProcess()
        let types = MatrixState.queried + MatrixState.correlated + [MatrixState.workout]
        for app in [MatrixData.otherApp] + MatrixState.allCases.map(\.appID) {
            try await broker.install(appID: app, executable: ProbeWorld.client)
            for type in types { try await broker.set(app, "share", type, allowed: true) }
        }
        let other = try ProbeSession(MatrixData.otherApp, adminSocket: broker.adminSocket)
        otherUUIDs = try await MatrixData.saveOther(through: other)
        var own: [String: [UUID]] = [:]
        for state in MatrixState.allCases {
            let session = try ProbeSession(state.appID, adminSocket: broker.adminSocket)
            own[state.appID] = try await MatrixData.saveOwn(through: session)
            try await session.finish()
        }
        hiddenWorkout = hidden ? try await MatrixData.saveHiddenWorkout(through: other, otherUUIDs: otherUUIDs) : nil
        if hidden {
            try await MatrixData.relateToOwnWorkouts(MatrixState.allCases.compactMap { own[$0.appID]?.last }, through: other,
                                                     otherUUIDs: otherUUIDs, in: broker)
        }
        try await other.finish()
        for command in MatrixState.allCases.flatMap(\.grantCommands) {
            let result = try await broker.healthctl(command)
            guard result.status == 0 else { throw CommandFailed(result: result) }
        }
        ownUUIDs = own
    }

    /// Every cell's answer as `state`'s app, normalized (the UUIDs minted in this world by their
    /// save order, anchors by length, observer ids by order), in `cells` order. `hiddenWorkout`:
    /// the hidden world's workout, which cells naming it name in both worlds.
    func probe(_ state: MatrixState, cells: [MatrixCell], naming hiddenWorkout: UUID) async throws -> [[String]] {
        let own = ownUUIDs[state.appID] ?? []
        let inputs = MatrixInputs(probingApp: state.appID, ownUUIDs: own, ownWorkout: own.last ?? UUID(),
                                  otherUUIDs: otherUUIDs, hiddenWorkout: hiddenWorkout)
        let session = try ProbeSession(state.appID, adminSocket: broker.adminSocket)
        var answers = [[String]](repeating: [], count: cells.count)
        var transcript = ProbeTranscript()
        for (index, cell) in cells.enumerated() where !cell.kind.isLongRunning {
            let payload = ProbeTranscript.hex(cell.payload(inputs))
            answers[index] = try await session.run("\(cell.kind.isUnary ? "unary" : "stream") \(cell.kind.method.rawValue) \(payload)")
        }
        // Long-running cells in waves: open, wait for each stream's first message (bounded), let
        // the settling time pass for any that must not come, read, close.
        let live = cells.indices.filter { cells[$0].kind.isLongRunning }
        var attempt = 0
        for wave in stride(from: 0, to: live.count, by: Self.streamsPerWave).map({ Array(live[$0..<min($0 + Self.streamsPerWave, live.count)]) }) {
            var streams: [Int: String] = [:]
            var pending = wave
            let deadline = Date().addingTimeInterval(ProbeWorld.deliveryTimeout)
            while !pending.isEmpty {
                for index in pending {
                    attempt += 1
                    streams[index] = "cell\(index)-\(attempt)"
                    _ = try await session.run("open \(streams[index] ?? "") \(cells[index].kind.method.rawValue) \(ProbeTranscript.hex(cells[index].payload(inputs)))")
                }
                while pending.contains(where: { session.watched(streams[$0] ?? "").isEmpty }), Date() < deadline {
                    try await Task.sleep(for: .milliseconds(5))
                }
                // healthd releases a closed stream's place in the app's long-running budget
                // after the client has moved on, so a wave opened right after the last one can
                // find the budget still full. That refusal is the test's own doing, never an
                // answer to compare: close it and open the cell again once the places are free.
                let refused = pending.filter { session.watched(streams[$0] ?? "").first?.hasPrefix(Self.budgetRefusal) == true }
                for index in refused { _ = try await session.run("close \(streams[index] ?? "")") }
                pending = Date() < deadline ? refused : []
                if !pending.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            }
            try await Task.sleep(for: ProbeWorld.settlingTime)
            for index in wave {
                answers[index] = session.watched(streams[index] ?? "")
                _ = try await session.run("close \(streams[index] ?? "")")
            }
        }
        try await session.finish()
        for (cell, lines) in zip(cells, answers) { transcript.append(lines, method: cell.kind.method) }
        // Apps that may read a type see every app's samples of it, the other probing apps' too:
        // all of them are minted afresh in each world.
        let everyApp = MatrixState.allCases.filter { $0 != state }.flatMap { ownUUIDs[$0.appID] ?? [] }
        return transcript.normalized(own: own + otherUUIDs + everyApp)
    }

    /// Opens a watched hourly heart-rate collection naming the hidden workout as `state`'s app,
    /// reads its first delivery, revokes the app's workout read grant and waits (bounded) for
    /// the delivery that follows. Returns the normalized messages before and after.
    func revokingWorkoutUnderAWatch(_ state: MatrixState, naming hiddenWorkout: UUID) async throws -> (initial: [String], afterRevocation: [String]) {
        let own = ownUUIDs[state.appID] ?? []
        let inputs = MatrixInputs(probingApp: state.appID, ownUUIDs: own, ownWorkout: own.last ?? UUID(),
                                  otherUUIDs: otherUUIDs, hiddenWorkout: hiddenWorkout)
        let cell = MatrixCell(kind: .collectionWatch, type: ProbeData.heartRate, predicate: .hiddenWorkout)
        let session = try ProbeSession(state.appID, adminSocket: broker.adminSocket)
        _ = try await session.run("open watch \(cell.kind.method.rawValue) \(ProbeTranscript.hex(cell.payload(inputs)))")
        let initial = try await Self.waitForMore(than: 0, on: "watch", in: session)
        let result = try await broker.healthctl(["revoke", state.appID, "read", MatrixState.workout])
        guard result.status == 0 else { throw CommandFailed(result: result) }
        let after = try await Self.waitForMore(than: initial.count, on: "watch", in: session)
        _ = try await session.run("close watch")
        try await session.finish()
        var transcript = ProbeTranscript()
        transcript.append(after, method: cell.kind.method)
        let normalized = transcript.normalized(own: own + otherUUIDs)[0]
        return (Array(normalized.prefix(initial.count)), normalized)
    }

    private static func waitForMore(than count: Int, on stream: String, in session: ProbeSession) async throws -> [String] {
        let deadline = Date().addingTimeInterval(ProbeWorld.deliveryTimeout)
        while session.watched(stream).count <= count, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: ProbeWorld.settlingTime)
        return session.watched(stream)
    }

    func stop() { broker.stop() }
}
