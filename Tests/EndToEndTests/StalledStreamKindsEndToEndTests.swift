import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Synchronization
import Testing
import TestSupport

/// Every call whose answer is more than one frame or lives on, attacked the way session 11's red
/// team attacked sample queries: one app holds its every connection (16), each running the call,
/// and never reads — or reads one byte a second. Meanwhile another app must be served (a save, a
/// query and a statistics query answer), the user must be able to lock the store (the drain waits for no
/// call that waits for its own client), and healthd's memory must stay bounded.
///
/// Generated: `Call.allCases` × `Reading.allCases`, on one healthd for the whole suite. healthd
/// runs with one large-query slot (as on two cores) and its unread-replies timeout at 10 minutes,
/// so the attacker stays stalled for each whole case: "the victim finished" and "the lock
/// succeeded" then prove that nothing waited for the attacker. The lock is the sharpest check: a
/// long-running anchored query's delivery waited for its client *inside* the store, where a lock
/// (or a key rotation) drains every call for at most 30 s and then fails — before the flow
/// control choke point (`CallResponder`) waited outside.
///
/// About 35 s in all (61 s at a load average of 20): 18 cases of about 1.5 s — three sandboxed
/// victim runs, a lock and an unlock — plus the timeout test's own healthd. Before the fix the two
/// anchored-with-updates cases each waited out the lock's 30 s drain.
@Suite(.timeLimit(.minutes(10)), .serialized) struct StalledStreamKindsEndToEndTests {
    static let attacker = "org.test.kinds-attacker"
    static let writer = "org.test.kinds-writer"
    static let victim = "org.test.kinds-victim"
    static let cda = HKDocumentTypeIdentifier.CDA.rawValue
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let connections = 16  // BrokerLimits.connectionsPerApp

    /// The streamed calls, each as an app (or the manager) starts it.
    enum Call: String, CaseIterable, CustomStringConvertible {
        case documentQuery
        case anchoredQuery
        case anchoredQueryWithUpdates
        case observer
        case statisticsCollection
        case statisticsCollectionWithUpdates
        case activitySummariesWithUpdates
        case userPreferencesFeed
        case accessLogListing

        var description: String { rawValue }

        var method: String {
            switch self {
            case .documentQuery: HealthStoreMethod.querySamples.rawValue
            case .anchoredQuery, .anchoredQueryWithUpdates: HealthStoreMethod.queryAnchored.rawValue
            case .observer: HealthStoreMethod.observeChanges.rawValue
            case .statisticsCollection: HealthStoreMethod.queryStatisticsCollection.rawValue
            case .statisticsCollectionWithUpdates: HealthStoreMethod.watchStatisticsCollection.rawValue
            case .activitySummariesWithUpdates: HealthStoreMethod.watchActivitySummaries.rawValue
            case .userPreferencesFeed: HealthStoreMethod.watchUserPreferences.rawValue
            case .accessLogListing: HealthManagerMethod.listAccessLog.rawValue
            }
        }

        var payload: [UInt8] {
            let collection = StatisticsCollectionSpec(
                statistics: StatisticsQuerySpec(typeIdentifier: StalledStreamKindsEndToEndTests.steps, options: .cumulativeSum),
                anchor: Date(timeIntervalSince1970: 1_699_999_200), interval: StatisticsInterval(minutes: 1), timeZoneIdentifier: "UTC")
            switch self {
            case .documentQuery: return SampleQuerySpec(typeIdentifier: cda).wireBytes()
            case .anchoredQuery: return AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: cda)]).wireBytes()
            case .anchoredQueryWithUpdates:
                return AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: cda)], longRunning: true).wireBytes()
            case .observer: return TypePredicateSpec(typeIdentifier: cda).wireBytes()
            case .statisticsCollection, .statisticsCollectionWithUpdates: return collection.wireBytes()
            case .activitySummariesWithUpdates: return ActivitySummaryQuerySpec(timeZoneIdentifier: "UTC").wireBytes()
            case .userPreferencesFeed: return UserPreferencesFeedRequest().wireBytes()
            case .accessLogListing: return AccessLogQuery().wireBytes()
            }
        }

        var onAdminSocket: Bool { self == .accessLogListing }
        /// Whether the answer is the documents (about 11 MB): it stalls by its own size, and the
        /// case checks that it did (`LargeDocumentWorld.waitUntilStalled`). The others stall by
        /// the attacker holding every connection with a call that lives on.
        var answersDocuments: Bool { [.documentQuery, .anchoredQuery, .anchoredQueryWithUpdates].contains(self) }
        private var cda: String { StalledStreamKindsEndToEndTests.cda }
    }

    /// How the attacker reads its replies.
    enum Reading: String, CaseIterable, CustomStringConvertible {
        case never
        /// One byte a second on each connection.
        case slowly
        var description: String { rawValue }
    }

    /// One healthd for the suite: 12 CDA documents of 900 kB (about 11 MB, far past a socket and
    /// healthd's pause), an attacker that may read them and steps (`LargeDocumentWorld`), and a
    /// victim with steps.
    final class World: Sendable {
        let broker: BrokerProcess
        /// healthd's largest resident size seen after a case, in KiB.
        let peakResidentKiB = Mutex(0)
        /// Cases finished: the last one stops healthd (a suite-wide world has no teardown, and a
        /// healthd left running outlives the test process).
        private let finished = Mutex(0)

        func caseFinished() {
            let all = finished.withLock { count in
                count += 1
                return count == StalledStreamKindsEndToEndTests.cases.count
            }
            if all { broker.stop() }
        }

        init() async throws {
            broker = try await LargeDocumentWorld(
                arguments: ["--stalled-peer-timeout", "600", "--large-queries-running", "1"],
                writer: StalledStreamKindsEndToEndTests.writer, reader: attacker,
                readerGrants: [("read", steps), ("read", HKObjectType.activitySummaryType().identifier)]).broker
            let victim = try await broker.installClient(StalledStreamKindsEndToEndTests.victim)
            try await broker.set(victim, "share", steps, allowed: true)
            try await broker.set(victim, "read", steps, allowed: true)
            #expect(try await broker.runApp(victim, ["save", steps, "100", "count", "1700000000", "1700000060"]).okValue != nil)
        }

        var residentKiB: Int {
            guard let status = try? String(contentsOfFile: "/proc/\(broker.pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
    }

    /// The attacker's connections, each with the call sent as call 1; with `slowly`, a thread per
    /// connection reads one byte a second until the test closes it.
    final class Attack: Sendable {
        let descriptors: [Int32]
        private let stopped = Atomic<Bool>(false)

        init(_ call: Call, _ reading: Reading, on broker: BrokerProcess) throws {
            let path = call.onAdminSocket ? broker.adminSocket : broker.appSocket
            let count = call.onAdminSocket ? 1 : connections
            var descriptors: [Int32] = []
            for _ in 0..<count {
                let fd = try UnixSocket.connect(path: path)
                descriptors.append(fd)
                sendAll(FrameCodec.encode(.request(1, call.method, call.payload)), to: fd)
            }
            self.descriptors = descriptors
            guard reading == .slowly else { return }
            for fd in descriptors {
                let own = dup(fd)
                let thread = Thread { [self] in
                    var byte: UInt8 = 0
                    while !stopped.load(ordering: .relaxed), recv(own, &byte, 1, 0) == 1 { sleep(1) }
                    close(own)
                }
                thread.start()
            }
        }

        func stop() {
            stopped.store(true, ordering: .relaxed)
            for fd in descriptors { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
        }
    }

    static let world = Task { try await World() }

    static var cases: [(Call, Reading)] { Call.allCases.flatMap { call in Reading.allCases.map { (call, $0) } } }

    @Test(arguments: cases)
    func aStalledStreamStallsOnlyItsOwnApp(_ call: Call, _ reading: Reading) async throws {
        let world = try await Self.world.value
        defer { world.caseFinished() }
        let broker = world.broker
        let attack = try Attack(call, reading, on: broker)
        defer { attack.stop() }
        // healthd has begun answering: the call ran, and blocks (or will) on this client. A
        // document answer must have filled the socket, or the case stalls nothing.
        if call.answersDocuments {
            let unread = try await LargeDocumentWorld.waitUntilStalled(anyOf: attack.descriptors)
            print("StalledStreamKinds \(call) \(reading): stalled with \(unread) bytes unread")
        } else {
            try #require(try await AppBudgetEndToEndTests.waitForReplies(attack.descriptors[0]), "healthd never answered \(call)")
        }

        let clock = ContinuousClock()
        let victimStarted = clock.now
        let save = try await broker.runApp(Self.victim, ["save", Self.steps, "10", "count", "1700000100", "1700000160"], timeout: 120)
        #expect(save.okValue != nil, "\(call), \(reading): the victim's save: \(save)")
        let query = try await broker.runApp(Self.victim, ["query", Self.steps], timeout: 120)
        #expect((query.okValue.flatMap { Int($0) } ?? 0) >= 2, "\(call), \(reading): the victim's query: \(query)")
        let statistics = try await broker.runApp(Self.victim, ["statistics", Self.steps, "--options", "sum"], timeout: 120)
        #expect(statistics.okValue == "1", "\(call), \(reading): the victim's statistics query: \(statistics)")
        let victimTook = clock.now - victimStarted

        // The user locks and unlocks: no call waits for this attacker inside the store.
        let lock = try await broker.healthctl(["lock"])
        #expect(lock.status == 0, "\(call), \(reading): the lock waited for the stalled call: \(lock)")
        if lock.status == 0 {
            let unlock = try await broker.healthctl(["unlock"])
            #expect(unlock.status == 0, "\(unlock)")
        }
        let resident = world.residentKiB
        world.peakResidentKiB.withLock { $0 = max($0, resident) }
        print("StalledStreamKinds \(call) \(reading): victim's three sandboxed runs \(victimTook), healthd resident \(resident >> 10) MiB")
        #expect(resident < Self.residentBoundKiB, "\(call), \(reading): healthd holds \(resident >> 10) MiB")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }

    /// healthd's resident size after any case.
    static let residentBoundKiB = 512 << 10

    /// The unread-replies timeout ends a client that reads nothing while healthd has replies for
    /// it, whatever the stream: a large query parked on it, and a long-running anchored query
    /// waiting outside the store. healthd runs with a 2 s timeout here; the 120 s only turn a
    /// hang into a failure.
    @Test(arguments: [Call.documentQuery, .anchoredQueryWithUpdates])
    func aClientThatNeverReadsIsDisconnectedByTheUnreadRepliesTimeout(_ call: Call) async throws {
        let broker = try await LargeDocumentWorld(arguments: ["--stalled-peer-timeout", "2"], writer: Self.writer,
                                                  reader: Self.attacker, documents: 4).broker
        defer { broker.stop() }
        let fd = try UnixSocket.connect(path: broker.appSocket)
        defer { close(fd) }
        sendAll(FrameCodec.encode(.request(1, call.method, call.payload)), to: fd)
        try #require(try await AppBudgetEndToEndTests.waitForReplies(fd), "healthd never answered \(call)")
        // Woken by healthd's shutdown of the socket (POLLRDHUP; unread replies alone do not wake it).
        var entry = pollfd(fd: fd, events: 0x2000, revents: 0)
        let woken = poll(&entry, 1, 120_000)
        #expect(woken == 1, "\(call): healthd kept a client that reads nothing for 120 s")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }
}
