import Foundation
import HealthModel
import HealthWire
import TestSupport

/// One broker with one probing app per `ProbeState` and the hidden app, whose samples exist
/// only if `hidden` is true (the world under test) and not otherwise (the control world).
/// Everything else — apps, grants, the probing apps' own saves, their order — is the same.
final class ProbeWorld: Sendable {
    static let hiddenApp = "org.probe.hidden"
    static let client = Products.path("leak-probe-client")

    let broker: BrokerProcess
    /// The hidden app's UUIDs (empty in the control world).
    let hiddenUUIDs: [UUID]
    /// Each probing app's own UUIDs from its set-up saves, by app id.
    let ownUUIDs: [String: [UUID]]

    init(hidden: Bool) async throws {
        broker = try BrokerProcess()
        for app in [Self.hiddenApp] + ProbeState.allCases.map(\.appID) {
            try await broker.install(appID: app, executable: Self.client)
            for type in [ProbeData.heartRate, ProbeData.steps] { try await broker.set(app, "share", type, allowed: true) }
        }
        // Hidden samples before and after the probing apps' own, so that insertion order and
        // change counters differ from a world without them at every point.
        var hiddenUUIDs: [UUID] = []
        if hidden { hiddenUUIDs += try await Self.save(ProbeData.hiddenEarly, as: Self.hiddenApp, in: broker) }
        var own: [String: [UUID]] = [:]
        for state in ProbeState.allCases {
            own[state.appID] = try await Self.save(ProbeData.ownFirst, as: state.appID, in: broker)
                + Self.save(ProbeData.ownSecond, as: state.appID, in: broker)
        }
        if hidden { hiddenUUIDs += try await Self.save(ProbeData.hiddenLate, as: Self.hiddenApp, in: broker) }
        for state in ProbeState.allCases {
            for command in state.grantCommands {
                let result = try await broker.healthctl(command)
                guard result.status == 0 else { throw CommandFailed(result: result) }
            }
        }
        self.hiddenUUIDs = hiddenUUIDs
        ownUUIDs = own
    }

    /// Runs the probe calls as `state`'s app and returns its transcript, normalized.
    func probe(_ state: ProbeState, calls: [ProbeCall], hiddenUUIDs: [UUID]) async throws -> [[String]] {
        let own = ownUUIDs[state.appID] ?? []
        let inputs = ProbeInputs(probingApp: state.appID, hiddenApp: Self.hiddenApp, ownUUIDs: own,
                                 hiddenUUIDs: hiddenUUIDs, hiddenSyncIdentifiers: ProbeData.hiddenSyncIdentifiers)
        let transcript = try await Self.run(calls.map { $0.scriptLine(inputs) }, as: state.appID, in: broker)
        guard transcript.responses.count == calls.count else {
            throw ProbeFailed(reason: "\(state.appID) answered \(transcript.responses.count) of \(calls.count) calls")
        }
        // Saves during the probe add own UUIDs, numbered after the set-up ones.
        let saved = calls.indices.flatMap { transcript.savedUUIDs(at: $0) }
        return transcript.normalized(own: own + saved)
    }

    func stop() { broker.stop() }

    private static func save(_ records: [SampleRecord], as app: String, in broker: BrokerProcess) async throws -> [UUID] {
        let line = "unary \(HealthStoreMethod.save.rawValue) \(ProbeTranscript.hex(SampleList(records).wireBytes()))"
        let uuids = try await run([line], as: app, in: broker).savedUUIDs(at: 0)
        guard uuids.count == records.count else { throw ProbeFailed(reason: "\(app) could not save its samples") }
        return uuids
    }

    private static func run(_ script: [String], as app: String, in broker: BrokerProcess) async throws -> ProbeTranscript {
        let result = try await ProcessRun.run(Products.path("health-sandbox"),
                                              ["run", app, "--socket", broker.adminSocket, "--", client],
                                              stdin: script.joined(separator: "\n") + "\n")
        guard result.status == 0 else { throw ProbeFailed(reason: "leak-probe-client as \(app): \(result)") }
        return ProbeTranscript(output: result.stdout)
    }
}

struct ProbeFailed: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
