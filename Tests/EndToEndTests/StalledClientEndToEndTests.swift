import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// A client that starts a large query and stops reading must stall only itself (issue: one
/// large-query slot on a two-core machine, held by a document query whose app never reads).
/// While the query waits for its client it parks: its broker-wide slot goes to the next app
/// (QueryScheduler), its app's own slot stays held.
///
/// healthd runs with one large-query slot (as on two cores, whatever the machine) and its
/// unread-replies timeout at 10 minutes, so a parked attacker stays parked for the whole test:
/// "the victim finished" then proves the victim never waited for the attacker. Every wait is
/// for an event; the 120 s of each victim run only turn a hang into a failure.
@Suite(.timeLimit(.minutes(10)), .serialized) struct StalledClientEndToEndTests {
    /// The test process, connecting by itself: it can hold several connections of one app.
    static let attacker = "org.test.stall-attacker"
    /// A second attacker: `leak-probe-client`, a separate sandboxed process.
    static let otherAttacker = "org.test.stall-other"
    static let writer = "org.test.stall-writer"
    static let victim = "org.test.stall-victim"
    static let cda = HKDocumentTypeIdentifier.CDA.rawValue
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
    static let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
    static let bloodPressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue
    static let arguments = ["--stalled-peer-timeout", "600", "--large-queries-running", "1"]

    /// 12 CDA documents of 900 kB (about 11 MB, far past what a socket and healthd's 1 MiB
    /// pause threshold hold) that both attackers may read (`LargeDocumentWorld`); a victim with
    /// steps and a reading.
    func world() async throws -> BrokerProcess {
        let documents = try await LargeDocumentWorld(arguments: Self.arguments, writer: Self.writer, reader: Self.attacker)
        let broker = documents.broker
        try await broker.install(appID: Self.otherAttacker, executable: Products.path("leak-probe-client"))
        try await broker.set(Self.otherAttacker, "read", Self.cda, allowed: true)
        let victim = try await broker.installClient(Self.victim)
        for type in [Self.steps, Self.systolic, Self.diastolic] {
            try await broker.set(victim, "share", type, allowed: true)
            try await broker.set(victim, "read", type, allowed: true)
        }
        #expect(try await broker.runApp(victim, ["save", Self.steps, "100", "count", "1700000000", "1700000060"]).okValue != nil)
        #expect(try await broker.runApp(victim, ["save-blood-pressure", "120", "80", "1700000000"]).okValue != nil)
        return broker
    }

    static var documentQuery: [UInt8] { LargeDocumentWorld.documentQuery }

    /// Starts the document query on a connection of its own and never reads it; returns once
    /// healthd has filled the socket and stopped writing (`LargeDocumentWorld.waitUntilStalled`,
    /// which fails the test when the answer is too small to stall): the query ran and blocks on
    /// this client.
    static func stallDocumentQuery(_ broker: BrokerProcess) async throws -> Int32 {
        let fd = try UnixSocket.connect(path: broker.appSocket)
        let request = FrameCodec.encode(.request(1, HealthStoreMethod.querySamples.rawValue, documentQuery))
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        do {
            _ = try await LargeDocumentWorld.waitUntilStalled(fd)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The victim's steps sample query, statistics query and correlation query all answer.
    func expectVictimServed(_ broker: BrokerProcess, _ context: String) async throws {
        let query = try await broker.runApp(Self.victim, ["query", Self.steps], timeout: 120)
        #expect(query.okValue == "1", "\(context): steps query: \(query)")
        let statistics = try await broker.runApp(Self.victim, ["statistics", Self.steps, "--options", "sum"], timeout: 120)
        #expect(statistics.okValue == "1", "\(context): statistics query: \(statistics)")
        let correlations = try await broker.runApp(Self.victim, ["query-correlations", Self.bloodPressure], timeout: 120)
        #expect(correlations.status == 0 && correlations.lines.contains { $0.hasPrefix("correlation ") },
                "\(context): correlation query: \(correlations)")
    }

    @Test func aClientThatNeverReadsItsDocumentQueryStallsOnlyItself() async throws {
        let broker = try await world()
        let fd = try await Self.stallDocumentQuery(broker)
        defer { close(fd); withExtendedLifetime(broker) {} }
        try await expectVictimServed(broker, "one attacker")
        // Still connected and still unread: the victim did not wait for healthd to give up on it.
        #expect(AppBudgetEndToEndTests.stillOpen(fd), "healthd closed the attacker before the victim was served")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }

    @Test func twoAttackersAtOnceStallOnlyThemselves() async throws {
        let broker = try await world()
        let fd = try await Self.stallDocumentQuery(broker)
        defer { close(fd); withExtendedLifetime(broker) {} }
        // The other attacker, a separate confined process, stalls the same query, once the user
        // allowed it the documents (offered by a session of its own: `stall` must come first).
        let offering = try ProbeClientSession(Products.path("health-sandbox"),
                                              ["run", Self.otherAttacker, "--socket", broker.adminSocket, "--",
                                               Products.path("leak-probe-client")])
        try await DocumentOffers.allowAll(toProbeApp: Self.otherAttacker, session: offering, in: broker)
        #expect(await offering.finish() == 0)
        let other = try ProbeClientSession(Products.path("health-sandbox"),
                                           ["run", Self.otherAttacker, "--socket", broker.adminSocket, "--",
                                            Products.path("leak-probe-client")])
        // Answered (`done`) once the request is on the socket; `run` throws otherwise.
        _ = try await other.run("stall \(HealthStoreMethod.querySamples.rawValue) \(Self.hex(Self.documentQuery))", timeout: 120)
        try await expectVictimServed(broker, "two attackers")
        #expect(AppBudgetEndToEndTests.stillOpen(fd), "healthd closed the first attacker before the victim was served")
        #expect(await other.finish() == 0)
    }

    /// The attacker's own second large query keeps waiting: parking gives back the broker-wide
    /// slot, not the app's. It is queued before the victim's queries, so had it been admitted
    /// it would have run (and answered: its result is small) before them.
    @Test func theAttackersOwnSecondQueryStillWaits() async throws {
        let broker = try await world()
        let fd = try await Self.stallDocumentQuery(broker)
        let second = try UnixSocket.connect(path: broker.appSocket)
        defer { close(fd); close(second); withExtendedLifetime(broker) {} }
        let stepsQuery = SampleQuerySpec(typeIdentifier: Self.steps).wireBytes()
        let request = FrameCodec.encode(.request(1, HealthStoreMethod.querySamples.rawValue, stepsQuery))
        _ = request.withUnsafeBytes { send(second, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        try #require(try await AppBudgetEndToEndTests.waitUntilTaken(second))
        try await expectVictimServed(broker, "attacker's second query queued")
        var unread: Int32 = 0
        #expect(ioctl(second, UInt(FIONREAD), &unread) == 0 && unread == 0,
                "the attacker's second large query ran while its first held the app's slot (\(unread) bytes)")
    }

    /// `healthctl lock` drains the store's calls (at most 30 s, then it fails and the store stays
    /// open). A query parked on its client is inside the store until its client reads (never,
    /// here: its timeout is 10 minutes), so the lock ends it instead of waiting for it.
    @Test func aLockEndsAParkedQueryInsteadOfWaitingForIt() async throws {
        let broker = try await world()
        let fd = try await Self.stallDocumentQuery(broker)
        defer { close(fd); withExtendedLifetime(broker) {} }
        let lock = try await broker.healthctl(["lock"])
        #expect(lock.status == 0, "\(lock)")
        let status = try await broker.healthctl(["status"])
        #expect(status.stdout.contains("yes (healthctl unlock)"), "\(status)")
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
