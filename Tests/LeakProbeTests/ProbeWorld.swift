import Foundation
import HealthModel
import HealthWire
import Synchronization
import TestSupport

/// One broker with one probing app per `ProbeState` and the hidden app, whose data exists only
/// if `hidden` is true (the world under test) and not otherwise (the control world).
/// Everything else — apps, grants, the probing apps' own saves, their order — is the same.
final class ProbeWorld: Sendable {
    static let hiddenApp = "org.probe.hidden"
    static let client = Products.path("leak-probe-client")
    /// How long a look at an open stream waits for a message that must not come.
    static let settlingTime: Duration = .milliseconds(300)
    /// How long it waits at most for one that must.
    static let deliveryTimeout: TimeInterval = 60

    let broker: BrokerProcess
    /// The hidden app's objects (none in the control world).
    let hiddenObjects: HiddenObjects
    /// Each probing app's own UUIDs from its set-up saves, by app id.
    let ownUUIDs: [String: [UUID]]
    /// The hidden app, kept connected for its actions between probe calls (hidden world only).
    private let hiddenSession: ProbeSession?
    private let hiddenActionsRun = Mutex(0)
    /// The UUIDs the probing apps' saves were answered with during `probe`, by app id.
    private let probeSaves = Mutex<[String: [UUID]]>([:])

    /// Per app, the objects of other probing apps it holds a per-object grant for (normalized
    /// like its own UUIDs, since each world mints its own).
    let grantedObjects: [String: [UUID]]

    /// Each probing app's id in this world, by state.
    let apps: [ProbeState: String]

    convenience init(hidden: Bool) async throws {
        try await self.init(hidden: hidden, apps: Dictionary(uniqueKeysWithValues: ProbeState.allCases.map { ($0, $0.appID) }),
                            hiddenAppReads: nil)
    }

    /// A world for `ReadDecisionTests`: nobody's data but the probing app's own; one probing
    /// app, always named `decisionApp`, in `state`; the hidden app (installed, saving nothing)
    /// granted read on every probed type or denied it.
    convenience init(decision state: ProbeState, hiddenAppReads: Bool) async throws {
        try await self.init(hidden: false, apps: [state: Self.decisionApp], hiddenAppReads: hiddenAppReads)
    }

    static let decisionApp = "org.probe.decision"

    /// `hiddenAppReads`: the user's read decision for the hidden app (nil: never asked).
    private init(hidden: Bool, apps: [ProbeState: String], hiddenAppReads: Bool?) async throws {
        self.apps = apps
        // In ProbeState order, so set-up saves happen in the same order in every world.
        let probers = ProbeState.allCases.compactMap { state in apps[state].map { (state: state, app: $0) } }
        broker = try BrokerProcess()
        for app in [Self.hiddenApp] + probers.map(\.app) {
            let entitled = probers.first { $0.app == app }.map(\.state.healthRecordsEntitled) ?? false
            try await broker.install(appID: app, executable: Self.client, entitlements: entitled ? ProbeData.healthRecordsEntitlement : [:])
            for type in ProbeData.sharedTypes + ProbeData.recordShareTypes { try await broker.set(app, "share", type, allowed: true) }
        }
        hiddenSession = hidden ? try ProbeSession(Self.hiddenApp, adminSocket: broker.adminSocket) : nil
        // Hidden objects before and after the probing apps' own, so that insertion order and
        // change counters differ from a world without them at every point.
        var hiddenObjects = HiddenObjects()
        if let hiddenSession { try await ProbeData.saveHiddenEarly(through: hiddenSession, into: &hiddenObjects) }
        var own: [String: [UUID]] = [:]
        for (_, app) in probers {
            let session = try ProbeSession(app, adminSocket: broker.adminSocket)
            own[app] = try await ProbeData.saveOwn(through: session)
            try await session.finish()
        }
        if let hiddenSession {
            try await ProbeData.saveHiddenLate(through: hiddenSession, into: &hiddenObjects)
            try await ProbeData.saveHiddenObjects(through: hiddenSession, into: &hiddenObjects)
            try await ProbeData.relateHiddenEffort(through: hiddenSession, toWorkouts: probers.compactMap { own[$0.app]?.last },
                                                   in: broker, into: &hiddenObjects)
            try await ProbeData.saveHiddenActivity(through: hiddenSession, importingInto: broker)
            try await ProbeData.saveHiddenRecordKinds(through: hiddenSession, importingInto: broker, into: &hiddenObjects)
            for command in ProbeData.hiddenCharacteristics + ProbeData.hiddenActivitySettings {
                let result = try await broker.healthctl(command)
                guard result.status == 0 else { throw CommandFailed(result: result) }
            }
        }
        let hiddenAppGrant = hiddenAppReads.map { [[$0 ? "grant" : "revoke", Self.hiddenApp, "read"] + ProbeData.readTypes] } ?? []
        for command in [ProbeData.sourcePriority, ProbeData.activeEnergyPriority] + hiddenAppGrant
            + probers.flatMap({ $0.state.grantCommands(for: $0.app) }) {
            let result = try await broker.healthctl(command)
            guard result.status == 0 else { throw CommandFailed(result: result) }
        }
        var grantedObjects: [String: [UUID]] = [:]
        for (state, app) in probers {
            guard let grant = state.objectGrant(hidden: hiddenObjects, hiddenWorld: hidden, ownUUIDs: own) else { continue }
            try await Self.answerObjectRequest(of: app, type: ProbeData.vision, allowing: grant.allow,
                                               afterwards: grant.revokeAfterwards ? [["object-grants", app, "--revoke-all"]] : [],
                                               in: broker)
            // Another app's object the grant lets it read: named by role, not by its world's UUID.
            grantedObjects[app] = grant.allow.filter { !hiddenObjects.containsPrescription($0) }
        }
        // Only the hidden world holds another app's documents to offer (`ProbeWorld+Documents`).
        if hidden, let app = apps[.authorized] { try await Self.allowOfferedDocuments(to: app, in: broker) }
        self.grantedObjects = grantedObjects
        self.hiddenObjects = hiddenObjects
        ownUUIDs = own
    }

    /// Runs `steps` as `state`'s app and returns what it received, normalized. `hidden` names the
    /// hidden world's objects (the control world is probed with the same values).
    func probe(_ state: ProbeState, steps: [ProbeStep], hidden: HiddenObjects) async throws -> [[String]] {
        guard let app = apps[state] else { throw ProbeFailed(reason: "no probing app in state \(state) in this world") }
        let session = try ProbeSession(app, adminSocket: broker.adminSocket)
        var own = ownUUIDs[app] ?? []
        let ownWorkout = own.last ?? UUID()
        var anchors: [String: [UInt8]] = [:]
        var observerUpdates: [String: ObserverDelivery] = [:]
        var seen: [String: Int] = [:]  // messages of each open stream at the last look
        var transcript = ProbeTranscript()
        for step in steps {
            switch step {
            case let .hidden(action):
                try await runHidden(action)
                transcript.append([], method: nil)
            case let .call(call):
                let inputs = ProbeInputs(probingApp: app, hiddenApp: Self.hiddenApp, ownUUIDs: own, ownWorkout: ownWorkout, hidden: hidden,
                                         anchors: anchors, observerUpdates: observerUpdates)
                let lines: [String]
                if case let .watch(stream, expectingMore) = call.shape {
                    lines = try await Self.look(at: stream, in: session, after: seen[stream] ?? 0, expectingMore: expectingMore)
                    seen[stream] = lines.count
                    if let update = ProbeTranscript.lastObserverUpdate(lines) { observerUpdates[stream] = update }
                } else {
                    lines = try await session.run(call.command(inputs)!)
                }
                if call.method == .save {
                    let saved = ProbeTranscript.savedUUIDs(lines)
                    try checkMintedForOwnSaves(saved, of: app, call: call.name)
                    own += saved
                }
                if call.method == .queryAnchored, let anchor = ProbeTranscript.lastAnchor(lines) { anchors[call.name] = anchor }
                if call.method == .queryWorkoutEffortRelationships, let anchor = ProbeTranscript.lastEffortAnchor(lines) {
                    anchors[call.name] = anchor
                }
                transcript.append(lines, method: call.method)
            }
        }
        try await session.finish()
        return transcript.normalized(own: own, granted: grantedObjects[app] ?? [])
    }

    func stop() { broker.stop() }

    /// The per-object read flow as an app and its user go through it: `app` asks to read objects
    /// of `type` (its call waits for the answer), the user answers with `healthctl object-requests
    /// --answer` allowing `allow`, then runs `afterwards` (a deletion, a revocation). Shared by every
    /// LeakProbe suite that needs a per-object grant.
    static func answerObjectRequest(of app: String, type: String, allowing allow: [UUID], afterwards: [[String]] = [],
                                    in broker: BrokerProcess) async throws {
        let session = try ProbeSession(app, adminSocket: broker.adminSocket)
        let request = SampleQuerySpec(typeIdentifier: type).wireBytes()
        async let asked = session.run("unary \(HealthStoreMethod.requestPerObjectReadAuthorization.rawValue) \(ProbeTranscript.hex(request))")
        // Wait for the request to reach healthd (a hang guard, not a timing assertion).
        var requestID: String?
        let deadline = Date().addingTimeInterval(deliveryTimeout)
        while requestID == nil, Date() < deadline {
            let listing = try await broker.healthctl(["object-requests"])
            requestID = listing.stdout.split(separator: "\n").first { $0.hasPrefix("Request ") && $0.contains("(\(app))") }
                .flatMap { $0.dropFirst("Request ".count).split(separator: ":").first }.map(String.init)
            if requestID == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        guard let requestID else { throw ProbeFailed(reason: "\(app)'s per-object request never reached healthd") }
        let allowed = allow.isEmpty ? [] : ["--allow", allow.map { $0.uuidString.lowercased() }.joined(separator: ",")]
        for command in [["object-requests", "--answer", requestID] + allowed] + afterwards {
            let result = try await broker.healthctl(command)
            guard result.status == 0 else { throw CommandFailed(result: result) }
        }
        let answer = try await asked
        guard answer.first?.hasPrefix("reply") == true else { throw ProbeFailed(reason: "\(app)'s per-object request failed: \(answer)") }
        try await session.finish()
    }

    /// A save reply may name only UUIDs minted for the saving app: anything minted for another
    /// app of this world (the hidden app, another probing app) would be normalized to `<own-N>`
    /// like the app's own and compare equal with the control world's fresh UUID, so it is
    /// refused here instead.
    private func checkMintedForOwnSaves(_ saved: [UUID], of probingApp: String, call: String) throws {
        var others = Set(hiddenSession?.savedUUIDs ?? [])
        for (app, uuids) in ownUUIDs where app != probingApp { others.formUnion(uuids) }
        probeSaves.withLock { saves in
            for (app, uuids) in saves where app != probingApp { others.formUnion(uuids) }
            saves[probingApp, default: []] += saved
        }
        let foreign = saved.filter(others.contains)
        guard foreign.isEmpty else {
            throw ProbeFailed(reason: "\(probingApp) \(call): the save reply carries UUIDs minted for another app: \(foreign)")
        }
    }

    /// What the open stream delivered so far, after waiting (bounded) for a message beyond the
    /// `before` seen at the last look, when one is expected, and then for the settling time.
    /// (Also `MedicationProbeWorld`'s.)
    static func look(at stream: String, in session: ProbeSession, after before: Int, expectingMore: Bool) async throws -> [String] {
        if expectingMore {
            let deadline = Date().addingTimeInterval(Self.deliveryTimeout)
            while session.watched(stream).count == before, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        }
        try await Task.sleep(for: Self.settlingTime)
        return session.watched(stream)
    }

    private func runHidden(_ action: HiddenAction) async throws {
        guard let hiddenSession else { return }
        let runs = hiddenActionsRun.withLock { runs in
            defer { runs += 1 }
            return runs
        }
        let answer = try await hiddenSession.run(action.command(earlierRuns: runs))
        guard answer.first?.hasPrefix("reply ") == true else {
            throw ProbeFailed(reason: "the hidden app could not \(action.name): \(answer)")
        }
    }
}

struct ProbeFailed: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
