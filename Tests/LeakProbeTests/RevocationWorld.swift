import Foundation
import HealthModel
import HealthWire
import TestSupport

/// One broker for `RunningQueryRevocationTests`: a reader (the probing app) with its own step
/// samples and, in the hidden world only, a writer's step samples. The reader runs a
/// long-running anchored query, an observer and a watched daily collection of steps, and an
/// anchored query over steps and heart rate together (`queryDescriptors:`), then loses its read
/// access to steps — heart rate stays readable — while they run.
final class RevocationWorld {
    static let reader = "org.probe.running-reader", writer = "org.probe.running-writer"
    static let steps = ProbeData.steps
    static let heartRate = ProbeData.heartRate
    static let streams = ["anchored", "observer", "collection", "anchored-set"]

    let broker: BrokerProcess
    let session: ProbeSession
    /// UUIDs minted in both worlds, in the same order (the reader's own, and the writer's heart
    /// rate): replaced by their position before the worlds' messages are compared.
    private(set) var ownUUIDs: [UUID] = []
    /// How many messages each stream had delivered when the reader lost its access.
    private(set) var seenAtLoss: [String: Int] = [:]

    init(hidden: Bool) async throws {
        broker = try BrokerProcess()
        for app in [Self.reader, Self.writer] {
            try await broker.install(appID: app, executable: ProbeWorld.client)
            try await broker.set(app, "share", Self.steps, allowed: true)
            try await broker.set(app, "share", Self.heartRate, allowed: true)
        }
        if hidden {
            let writerSession = try ProbeSession(Self.writer, adminSocket: broker.adminSocket)
            // Years old, so outside a 30-day window; some on the reader's days, one on its own.
            _ = try await ProbeData.save([ProbeData.steps(0, 500), ProbeData.steps(40, 70), ProbeData.steps(3000, 900)], through: writerSession)
            try await writerSession.finish()
        }
        session = try ProbeSession(Self.reader, adminSocket: broker.adminSocket)
        ownUUIDs = try await ProbeData.save([ProbeData.steps(10, 100), ProbeData.steps(60, 30)], through: session)
    }

    /// Grants the reader read on steps (for `seconds` only, if given), and on heart rate for good.
    func grantRead(for seconds: Int? = nil) async throws {
        for command in [["grant", Self.reader, "read", Self.heartRate],
                        ["grant", Self.reader, "read", Self.steps] + (seconds.map { ["--for", "\($0)s"] } ?? [])] {
            let result = try await broker.healthctl(command)
            guard result.status == 0 else { throw CommandFailed(result: result) }
        }
    }

    /// Opens the three queries and waits (bounded) for each one's first message; acknowledges
    /// the observer's first update, so that a later change may send another.
    func openQueries() async throws {
        let collection = StatisticsCollectionSpec(statistics: StatisticsQuerySpec(typeIdentifier: Self.steps, options: [.cumulativeSum]),
                                                  anchor: ProbeCatalog.dayAnchor, interval: StatisticsInterval(hours: 1),
                                                  timeZoneIdentifier: "UTC")
        let requests: [(String, HealthStoreMethod, [UInt8])] = [
            ("anchored", .queryAnchored, AnchoredQuerySpec(typeIdentifier: Self.steps, longRunning: true).wireBytes()),
            ("observer", .observeChanges, TypePredicateSpec(typeIdentifier: Self.steps).wireBytes()),
            ("collection", .watchStatisticsCollection, collection.wireBytes()),
            ("anchored-set", .queryAnchored,
             AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: Self.steps), TypePredicateSpec(typeIdentifier: Self.heartRate)],
                               longRunning: true).wireBytes()),
        ]
        for (name, method, payload) in requests {
            _ = try await session.run("open \(name) \(method.rawValue) \(ProbeTranscript.hex(payload))")
        }
        for name in Self.streams { try await waitForMore(than: 0, on: name) }
        guard let first = ProbeTranscript.lastObserverUpdate(session.watched("observer")) else {
            throw ProbeFailed(reason: "no first observer update: \(session.watched("observer"))")
        }
        _ = try await session.run("unary \(HealthStoreMethod.acknowledgeObserverUpdate.rawValue) \(ProbeTranscript.hex(first.wireBytes()))")
    }

    /// Notes how far each stream got; call just before the loss of access.
    func markLoss() {
        seenAtLoss = Dictionary(uniqueKeysWithValues: Self.streams.map { ($0, session.watched($0).count) })
    }

    /// The messages `stream` delivered since the loss, normalized (the reader's own UUIDs,
    /// anchors and observer ids replaced by placeholders).
    func sinceLoss(_ stream: String, method: HealthStoreMethod) -> [String] {
        var transcript = ProbeTranscript()
        transcript.append(Array(session.watched(stream).dropFirst(seenAtLoss[stream] ?? 0)), method: method)
        return transcript.normalized(own: ownUUIDs)[0]
    }

    /// The collection the reader holds after every delivery so far.
    var heldCollection: [StatisticsResult] { LeakMatrixTests.collection(session.watched("collection")) }

    /// The reader saves one more sample of its own.
    func saveOwn() async throws {
        ownUUIDs += try await ProbeData.save([ProbeData.steps(70, 5)], through: session)
    }

    /// The writer saves one more sample (hidden world only: the control world has no writer data).
    func saveAsWriter() async throws {
        let writerSession = try ProbeSession(Self.writer, adminSocket: broker.adminSocket)
        _ = try await ProbeData.save([ProbeData.steps(80, 40)], through: writerSession)
        try await writerSession.finish()
    }

    /// Waits (bounded) until healthd's log contains `text`; whether it does.
    func waitForLog(_ text: String) async throws -> Bool {
        let deadline = Date().addingTimeInterval(ProbeWorld.deliveryTimeout)
        while !broker.log.contains(text), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return broker.log.contains(text)
    }

    /// The writer saves a heart-rate sample, in either world: a type the reader still reads.
    func saveHeartRateAsWriter() async throws {
        let writerSession = try ProbeSession(Self.writer, adminSocket: broker.adminSocket)
        ownUUIDs += try await ProbeData.save([ProbeData.heartRate(90, 1.2)], through: writerSession)
        try await writerSession.finish()
    }

    /// Waits (bounded) until `stream` has more than `count` messages.
    func waitForMore(than count: Int, on stream: String) async throws {
        let deadline = Date().addingTimeInterval(ProbeWorld.deliveryTimeout)
        while session.watched(stream).count <= count, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    func stop() async {
        try? await session.finish()
        broker.stop()
    }
}
