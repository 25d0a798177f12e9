import Foundation
import Synchronization
import HealthModel
import HealthWire
import Testing
import TestSupport

/// DESIGN.md §7.3 for medications (iOS 26), measured as `LeakProbeTests` measures it: a dose
/// event or medication the app may not read looks exactly as if it never existed. Two real
/// brokers: in both the user tracks "granted-med" and logs its doses; in the hidden world the
/// user also tracks "hidden-med" with doses of every status, scheduled and as needed, and
/// "deleted-med", which one app was allowed to read before the user deleted it and then revoked
/// that app's grants. Each probing app (a confined `leak-probe-client`) is in one
/// `MedicationProbeState`; it runs `ProbeCatalog.medicationQueries`, opens
/// `medicationLiveQueries`, and — after the user logged later doses of both medications and
/// deleted a dose of the hidden one — reads `medicationLiveResults` and
/// `medicationContinuations`. Its raw response bytes must be identical in both worlds — except
/// for `allowedBoth`, the positive control, where every `medicationPositiveControls` step must
/// differ. Apple: medications are read per object, and authorizing one authorizes its dose
/// events (WWDC25 "Meet the HealthKit Medications API").
@Suite(.timeLimit(.minutes(10)), .serialized) struct MedicationLeakTests {
    @Test func noResponseByteDependsOnAMedicationTheAppMayNotRead() async throws {
        // Separate brokers and clients: built and probed at once.
        async let hiddenBuilt = MedicationProbeWorld(hidden: true)
        async let controlBuilt = MedicationProbeWorld(hidden: false)
        let (hiddenWorld, controlWorld) = try await (hiddenBuilt, controlBuilt)
        defer { hiddenWorld.stop() }
        defer { controlWorld.stop() }
        let names = hiddenWorld.hiddenObjects
        for state in MedicationProbeState.allCases {
            let steps = Self.steps(for: state)
            async let hiddenAnswers = hiddenWorld.probe(state, steps: steps, naming: names)
            async let controlAnswers = controlWorld.probe(state, steps: steps, naming: names)
            let (withHidden, without) = try await (hiddenAnswers, controlAnswers)
            let differing = steps.indices.filter { withHidden[$0] != without[$0] }.map { steps[$0].name }
            if state == .allowedBoth {
                let blind = ProbeCatalog.medicationPositiveControls.filter { !differing.contains($0) }
                #expect(blind.isEmpty, "positive control: allowed the hidden medication, these must see it: \(blind)")
            } else {
                #expect(differing.isEmpty, "\(state): responses depend on a medication the app may not read: \(differing)")
                for index in steps.indices where withHidden[index] != without[index] {
                    print("\(state) \(steps[index].name):\n  hidden world:  \(withHidden[index])\n  control world: \(without[index])")
                }
            }
        }
    }

    /// The probe's script for `state`: the same in both worlds. Only an app that reads the
    /// granted medication waits for its later dose on the long-running queries.
    static func steps(for state: MedicationProbeState) -> [MedicationProbeStep] {
        (ProbeCatalog.medicationQueries + ProbeCatalog.medicationLiveQueries).map(MedicationProbeStep.call) + [.laterDoses]
            + (ProbeCatalog.medicationLiveResults(expectingUpdates: state.readsGrantedMedication) + ProbeCatalog.medicationContinuations)
            .map(MedicationProbeStep.call)
    }
}

/// What the probing app was allowed.
enum MedicationProbeState: String, CaseIterable, Sendable {
    /// Never asked for medications.
    case neverAsked = "never-asked"
    /// Asked; the user allowed "granted-med" only.
    case allowedOne = "allowed-one"
    /// Asked; the user allowed none.
    case allowedNone = "allowed-none"
    /// Allowed every medication offered, then the user revoked them all.
    case revoked
    /// The positive control: allowed every medication offered (the hidden one too, where it exists).
    case allowedBoth = "allowed-both"
    /// Allowed "granted-med" and "deleted-med" (where it exists); the user deleted "deleted-med",
    /// then revoked every grant: a deletion it was owed while it held the grant must go with the
    /// grant (session 13: it was still reported, from the start and continued).
    case deletedThenRevoked = "deleted-then-revoked"
    /// Allowed "granted-med" and "dose-deleted-med" (where it exists); the user deleted a dose
    /// event of "dose-deleted-med", then revoked that medication's grant by its UUID (`healthctl
    /// object-grants APP --revoke UUID`): the deleted dose, read through the medication's grant,
    /// must go with it (session 13's leak 4, found by hand; the store's fix is v38).
    case doseDeletedThenRevoked = "dose-deleted-then-revoked"

    var appID: String { "org.probe.medications.\(rawValue)" }

    /// Whether it reads "granted-med" and so must be told of its later dose.
    var readsGrantedMedication: Bool { self == .allowedOne || self == .allowedBoth }
}

enum MedicationProbeStep: Sendable {
    case call(ProbeCall)
    /// The user logs a later dose of each medication (the hidden one's in the hidden world only)
    /// and, the first time, deletes the hidden medication's first dose.
    case laterDoses

    var name: String {
        switch self {
        case let .call(call): call.name
        case .laterDoses: "the user logs later doses"
        }
    }
}

enum MedicationProbeData {
    static let grantedConcept = "granted-med"
    static let hiddenConcept = "hidden-med"
    static let deletedConcept = "deleted-med"
    static let doseDeletedConcept = "dose-deleted-med"
    /// 2024-05-01T08:00:00Z: when the hidden medication's scheduled dose was due.
    static let hiddenScheduled = Date(timeIntervalSince1970: 1_714_550_400)

    /// What the user enters in both worlds.
    static let shared: [[String]] = [
        ["medications", "add", "Granted Med", "--form", "tablet", "--concept", grantedConcept, "--at", "2024-04-01T00:00Z"],
        ["medications", "log-dose", grantedConcept, "--status", "taken", "--dose", "1", "--at", "2024-05-01T07:00Z"],
        ["medications", "log-dose", grantedConcept, "--status", "snoozed", "--at", "2024-05-01T07:30Z"],
    ]

    /// What the user enters in the hidden world only: every status, both schedule kinds.
    static let hiddenOnly: [[String]] = [
        ["medications", "add", "Hidden Med", "--form", "injection", "--concept", hiddenConcept, "--rxnorm", "5640",
         "--nickname", "Secret", "--scheduled", "--at", "2024-03-01T00:00Z"],
        ["medications", "log-dose", hiddenConcept, "--status", "taken", "--dose", "2", "--unit", "mL",
         "--scheduled-at", "2024-05-01T08:00Z", "--scheduled-dose", "2", "--at", "2024-05-01T08:01Z"],
    ] + MedicationDoseEventNames.all.map { status in
        ["medications", "log-dose", hiddenConcept, "--status", status, "--at", "2024-05-01T08:30Z"]
    } + [["medications", "archive", hiddenConcept]]

    /// What the user enters in the hidden world only, for `MedicationProbeState.deletedThenRevoked`:
    /// a medication and a dose of it; the medication is deleted again before the probe.
    static let deletedMedication: [[String]] = [
        ["medications", "add", "Deleted Med", "--form", "tablet", "--concept", deletedConcept, "--at", "2024-04-15T00:00Z"],
        ["medications", "log-dose", deletedConcept, "--status", "taken", "--dose", "1", "--at", "2024-05-01T09:00Z"],
    ]

    /// What the user enters in the hidden world only, for `MedicationProbeState.doseDeletedThenRevoked`:
    /// a medication and a dose of it; the dose is deleted, then the app's grant of the medication
    /// revoked by UUID, before the probe.
    static let doseDeletedMedication: [[String]] = [
        ["medications", "add", "Dose Deleted Med", "--form", "capsule", "--concept", doseDeletedConcept, "--at", "2024-04-20T00:00Z"],
        ["medications", "log-dose", doseDeletedConcept, "--status", "taken", "--dose", "1", "--at", "2024-05-01T10:00Z"],
    ]

    static let laterShared = ["medications", "log-dose", grantedConcept, "--status", "skipped", "--at", "2024-05-02T07:00Z"]
    static let laterHidden = ["medications", "log-dose", hiddenConcept, "--status", "skipped", "--at", "2024-05-02T08:00Z"]

    /// The UUID `healthctl medications add|log-dose` printed last in parentheses.
    static func printedUUID(_ result: ProcessResult) -> UUID? {
        guard let open = result.stdout.lastIndex(of: "("), let close = result.stdout.lastIndex(of: ")"), open < close else { return nil }
        return UUID(uuidString: String(result.stdout[result.stdout.index(after: open)..<close]))
    }
}

enum MedicationDoseEventNames {
    static let all = ["notInteracted", "notificationNotSent", "snoozed", "taken", "skipped", "notLogged"]
}

/// One broker with one probing app per `MedicationProbeState`.
final class MedicationProbeWorld: Sendable {
    let broker: BrokerProcess
    let hidden: Bool
    /// The hidden medication's and its doses' UUIDs (none in the control world).
    let hiddenObjects: HiddenObjects
    /// The granted medication's and its doses' UUIDs, in entry order; later doses are added by
    /// `probe` (through `later`), in the same order in both worlds.
    private let grantedObjects: [UUID]
    private let later = Mutex<[UUID]>([])
    /// Whether the user deleted the hidden medication's first dose yet (at the first `laterDoses`).
    private let hiddenDoseDeleted = Mutex(false)

    init(hidden: Bool) async throws {
        self.hidden = hidden
        broker = try BrokerProcess()
        for state in MedicationProbeState.allCases {
            try await broker.install(appID: state.appID, executable: ProbeWorld.client)
        }
        var granted: [UUID] = []
        for command in MedicationProbeData.shared {
            granted.append(try Self.uuid(of: try await broker.healthctl(command), command))
        }
        var hiddenUUIDs: [UUID] = []
        var deletedUUIDs: [UUID] = []
        var doseDeletedUUIDs: [UUID] = []
        if hidden {
            for command in MedicationProbeData.hiddenOnly {
                let result = try await broker.healthctl(command)
                guard result.status == 0 else { throw CommandFailed(result: result) }
                if let uuid = MedicationProbeData.printedUUID(result) { hiddenUUIDs.append(uuid) }
            }
            for command in MedicationProbeData.deletedMedication {
                deletedUUIDs.append(try Self.uuid(of: try await broker.healthctl(command), command))
            }
            for command in MedicationProbeData.doseDeletedMedication {
                doseDeletedUUIDs.append(try Self.uuid(of: try await broker.healthctl(command), command))
            }
        }
        grantedObjects = granted
        // The deleted medication's UUIDs after the hidden one's: `samples[0]` is "hidden-med".
        hiddenObjects = HiddenObjects(samples: hiddenUUIDs + deletedUUIDs + doseDeletedUUIDs)
        for state in MedicationProbeState.allCases where state != .neverAsked {
            let allow: [UUID] = switch state {
            case .allowedOne: [granted[0]]
            case .allowedNone: []
            case .revoked, .allowedBoth: [granted[0]] + (hidden ? [hiddenUUIDs[0]] : [])
            case .deletedThenRevoked: [granted[0]] + deletedUUIDs.prefix(1)
            case .doseDeletedThenRevoked: [granted[0]] + doseDeletedUUIDs.prefix(1)
            case .neverAsked: []
            }
            let revokeAll = ["object-grants", state.appID, "--revoke-all"]
            let afterwards: [[String]] = switch state {
            case .revoked: [revokeAll]
            case .deletedThenRevoked: deletedUUIDs.prefix(1).map { ["delete", $0.uuidString.lowercased(), "--yes"] } + [revokeAll]
            case .doseDeletedThenRevoked:
                doseDeletedUUIDs.dropFirst().prefix(1).map { ["delete", $0.uuidString.lowercased(), "--yes"] }
                    + doseDeletedUUIDs.prefix(1).map { ["object-grants", state.appID, "--revoke", $0.uuidString.lowercased()] }
            default: []
            }
            try await ProbeWorld.answerObjectRequest(of: state.appID, type: ProbeCatalog.medicationType, allowing: allow,
                                                     afterwards: afterwards, in: broker)
        }
    }

    private static func uuid(of result: ProcessResult, _ command: [String]) throws -> UUID {
        guard result.status == 0, let uuid = MedicationProbeData.printedUUID(result) else { throw CommandFailed(result: result) }
        return uuid
    }

    /// Runs `steps` as `state`'s app; what it received, with the granted medication's UUIDs (by
    /// role) and anchors normalized.
    func probe(_ state: MedicationProbeState, steps: [MedicationProbeStep], naming names: HiddenObjects) async throws -> [[String]] {
        let session = try ProbeSession(state.appID, adminSocket: broker.adminSocket)
        var anchors: [String: [UInt8]] = [:]
        var observerUpdates: [String: ObserverDelivery] = [:]
        var seen: [String: Int] = [:]  // messages of each open stream at the last look
        var transcript = ProbeTranscript()
        for step in steps {
            switch step {
            case .laterDoses:
                let shared = try Self.uuid(of: try await broker.healthctl(MedicationProbeData.laterShared), MedicationProbeData.laterShared)
                later.withLock { $0.append(shared) }
                if hidden {
                    var commands = [MedicationProbeData.laterHidden]
                    let deletedAlready = hiddenDoseDeleted.withLock { deleted in
                        defer { deleted = true }
                        return deleted
                    }
                    if !deletedAlready, hiddenObjects.samples.count > 1 {
                        commands.append(["delete", hiddenObjects.samples[1].uuidString.lowercased(), "--yes"])
                    }
                    for command in commands {
                        let result = try await broker.healthctl(command)
                        guard result.status == 0 else { throw CommandFailed(result: result) }
                    }
                }
                transcript.append([], method: nil)
            case let .call(call):
                let inputs = ProbeInputs(probingApp: state.appID, hiddenApp: "user", ownUUIDs: [], ownWorkout: UUID(), hidden: names,
                                         anchors: anchors, observerUpdates: observerUpdates)
                let lines: [String]
                if case let .watch(stream, expectingMore) = call.shape {
                    lines = try await ProbeWorld.look(at: stream, in: session, after: seen[stream] ?? 0, expectingMore: expectingMore)
                    seen[stream] = lines.count
                    if let update = ProbeTranscript.lastObserverUpdate(lines) { observerUpdates[stream] = update }
                } else if let command = call.command(inputs) {
                    lines = try await session.run(command)
                } else {
                    continue
                }
                if call.method == .queryAnchored, let anchor = ProbeTranscript.lastAnchor(lines) { anchors[call.name] = anchor }
                transcript.append(lines, method: call.method)
            }
        }
        try await session.finish()
        return transcript.normalized(own: [], granted: grantedObjects + later.withLock { $0 })
    }

    func stop() { broker.stop() }
}
