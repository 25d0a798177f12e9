import Foundation
import Glibc
import HealthIPC
import HealthModel
import HealthWire
import Synchronization
import Testing
import TestSupport

/// Every long-lived per-app resource healthd holds for a client, driven to its cap by one app
/// while another app is served (ARCHITECTURE.md, "What one app may hold").
///
/// Generated: `Resource.allCases`, on one healthd for the whole suite. The attacker is this test
/// process connecting directly; it takes one resource to its cap and holds it there, reading
/// nothing it is not asked to. Then, while the cap still holds:
/// - the attacker's next call past the cap is refused with RESOURCE_EXHAUSTED naming that limit;
/// - a victim, a separate sandboxed process (`leak-probe-client`), saves (a unary call) and its
///   own long-running anchored query delivers that save;
/// - healthd's resident size stays under `residentBoundKiB`.
/// The stalls last for the whole case (healthd's stall timeouts at 10 minutes), so "the victim
/// was served" proves that nothing waited for the attacker to give up.
///
/// `aRefusalAtAPromptLimitReadsNothing` checks the class the enumeration found: a call refused at
/// its cap must be refused before it costs the store anything. About 20 s in all.
@Suite(.timeLimit(.minutes(10)), .serialized) struct AppResourceCapEndToEndTests {
    static let attacker = "org.test.cap-attacker"
    static let victim = "org.test.cap-victim"
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let cda = HKDocumentTypeIdentifier.CDA.rawValue
    static let vision = HKVisionPrescriptionTypeIdentifier

    /// `BrokerLimits`' defaults, as ARCHITECTURE.md documents them.
    static let connectionsPerApp = 16
    static let callsPerConnection = 32
    static let callsPerApp = 64
    static let longRunningPerApp = 24
    static let promptsPerApp = 4

    typealias Limits = AppResourceCapEndToEndTests

    /// A resource one app holds in healthd, and how the attacker takes it to its cap.
    enum Resource: String, CaseIterable, CustomStringConvertible {
        /// Connections held open (each costs healthd two threads).
        case connections
        /// Calls in flight on one connection: large queries waiting for the app's one slot,
        /// which its own stalled query holds.
        case callsPerConnection
        /// Calls in flight over all of the app's connections, the same way.
        case callsPerApp
        /// Long-running queries (observers), their updates left unread.
        case longRunningQueries
        /// Type-wide permission prompts waiting for the user.
        case permissionPrompts
        /// Per-object read requests waiting for the user.
        case perObjectRequests

        var description: String { rawValue }

        /// What the refusal at the cap must say.
        var limitMessage: String {
            switch self {
            case .connections: "at most \(Limits.connectionsPerApp) connections per app"
            case .callsPerConnection: "at most \(Limits.callsPerConnection) calls in flight per connection"
            case .callsPerApp: "at most \(Limits.callsPerApp) calls in flight per app"
            case .longRunningQueries: "at most \(Limits.longRunningPerApp) long-running queries per app"
            case .permissionPrompts: "at most \(Limits.promptsPerApp) pending permission prompts per app"
            case .perObjectRequests: "at most \(Limits.promptsPerApp) pending per-object read requests per app"
            }
        }
    }

    static var documentQuery: (String, [UInt8]) {
        (HealthStoreMethod.querySamples.rawValue, SampleQuerySpec(typeIdentifier: cda).wireBytes())
    }
    static var observer: (String, [UInt8]) {
        (HealthStoreMethod.observeChanges.rawValue, TypePredicateSpec(typeIdentifier: steps).wireBytes())
    }
    static var prompt: (String, [UInt8]) {
        (HealthStoreMethod.requestAuthorization.rawValue, AuthorizationTypes(share: [], read: [heartRate]).wireBytes())
    }
    static var perObjectRequest: (String, [UInt8]) {
        (HealthStoreMethod.requestPerObjectReadAuthorization.rawValue, SampleQuerySpec(typeIdentifier: vision).wireBytes())
    }
    static var cheapCall: (String, [UInt8]) {
        (HealthStoreMethod.authorizationStatus.rawValue, TypeIdentifierMessage(steps).wireBytes())
    }

    /// One healthd for the suite: 4 CDA documents of 900 kB the attacker may read (an answer far
    /// past a socket's buffer, so a query of them stalls), and a victim that saves and watches steps.
    final class World: Sendable {
        let broker: BrokerProcess
        let victim: ProbeClientSession
        let peakResidentKiB = Mutex(0)
        private let finished = Mutex(0)

        init() async throws {
            broker = try BrokerProcess(extraArguments: ["--stalled-peer-timeout", "600", "--large-queries-running", "1"])
            let writer = try await broker.installClient("org.test.cap-writer")
            try await broker.set(writer, "share", cda, allowed: true)
            let saved = try await broker.runApp(writer, ["snippet", "cda-save", "4", "900000"], timeout: 300)
            try #require(saved.okValue == "saved 4 Visit 4", "\(saved)")
            try await broker.install(appID: attacker, executable: Products.testProcessExecutable)
            try await broker.allowDirect(attacker)
            for type in [cda, steps] { try await broker.set(attacker, "read", type, allowed: true) }
            try await DocumentOffers.allowAll(toDirectApp: attacker, in: broker)
            victim = try await ServedVictim.start(AppResourceCapEndToEndTests.victim, on: broker)
        }

        func caseFinished() {
            let all = finished.withLock { count in
                count += 1
                return count == Resource.allCases.count + 2
            }
            if all { broker.stop() }
        }

        var residentKiB: Int { ServedVictim.residentKiB(of: broker) }
    }

    static let world = Task { try await World() }
    static let residentBoundKiB = 512 << 10
    
    /// The attacker's connections for one case; closing them ends everything it held.
    final class Hold: Sendable {
        let descriptors: Mutex<[Int32]> = Mutex([])

        func connect(_ broker: BrokerProcess) throws -> Int32 {
            let fd = try UnixSocket.connect(path: broker.appSocket)
            descriptors.withLock { $0.append(fd) }
            return fd
        }

        var allOpen: Bool { descriptors.withLock { $0.allSatisfy(AppBudgetEndToEndTests.stillOpen) } }

        /// Closes every connection, once (the list is emptied).
        func release() {
            let all = descriptors.withLock { descriptors in
                defer { descriptors = [] }
                return descriptors
            }
            for fd in all { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
        }
    }

    /// Takes `resource` to its cap and makes one call past it; returns the refusal frame.
    static func reachCap(_ resource: Resource, _ hold: Hold, _ broker: BrokerProcess) async throws -> Frame? {
        switch resource {
        case .connections:
            for _ in 0..<connectionsPerApp {
                let fd = try hold.connect(broker)
                // Answered: identified and counted before the next one connects.
                _ = RawFrames.pipeline([cheapCall], to: fd)
                try #require(try await AppBudgetEndToEndTests.waitForReplies(fd), "a connection below the cap was not served")
            }
            let extra = try hold.connect(broker)
            _ = RawFrames.pipeline([cheapCall], to: extra)
            return RawFrames.firstRefusal(on: extra)
        case .callsPerConnection, .callsPerApp:
            // The app's one large-query slot, held by a query its client never reads (parked).
            let stalled = try hold.connect(broker)
            _ = RawFrames.pipeline([documentQuery], to: stalled)
            try #require(try await AppBudgetEndToEndTests.waitForReplies(stalled), "healthd never answered the stalled query")
            if resource == .callsPerConnection {
                let fd = try hold.connect(broker)
                _ = RawFrames.pipeline(Array(repeating: documentQuery, count: callsPerConnection + 1), to: fd)
                return RawFrames.firstRefusal(on: fd)
            }
            let full = try hold.connect(broker)
            _ = RawFrames.pipeline(Array(repeating: documentQuery, count: callsPerConnection), to: full)
            try #require(try await AppBudgetEndToEndTests.waitUntilTaken(full), "healthd never took the calls")
            try await Task.sleep(for: .milliseconds(300))  // the reader admits what it took
            let rest = try hold.connect(broker)
            _ = RawFrames.pipeline(Array(repeating: documentQuery, count: callsPerApp - callsPerConnection), to: rest)
            return RawFrames.firstRefusal(on: rest)
        case .longRunningQueries:
            let fd = try hold.connect(broker)
            _ = RawFrames.pipeline(Array(repeating: observer, count: longRunningPerApp + 1), to: fd)
            return RawFrames.firstRefusal(on: fd)
        case .permissionPrompts, .perObjectRequests:
            let call = resource == .permissionPrompts ? prompt : perObjectRequest
            let fd = try hold.connect(broker)
            _ = RawFrames.pipeline(Array(repeating: call, count: promptsPerApp), to: fd)
            // The next one once all are filed (the user's lists show them).
            try #require(try await waitUntilPending(resource, count: promptsPerApp, broker), "the prompts below the cap were not filed")
            _ = RawFrames.pipeline([call], firstID: UInt64(promptsPerApp + 1), to: fd)
            return RawFrames.firstRefusal(on: fd)
        }
    }

    /// The attacker's requests the user's lists show as pending, polled until `count` (hang guard 120 s).
    static func waitUntilPending(_ resource: Resource, count: Int, _ broker: BrokerProcess) async throws -> Bool {
        let until = Date().addingTimeInterval(120)
        while Date() < until {
            if try await pending(resource, broker) == count { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    static func pending(_ resource: Resource, _ broker: BrokerProcess) async throws -> Int {
        let list = resource == .perObjectRequests ? ["object-requests"] : ["requests"]
        return try await broker.healthctl(list).lines.count { $0.contains(attacker) }
    }

    /// After a case: the attacker's connections are gone and healthd has let go of what they
    /// held (the prompts are withdrawn, a new connection is served), so the next case starts at 0.
    static func settle(_ broker: BrokerProcess) async throws {
        let until = Date().addingTimeInterval(120)
        while Date() < until {
            let prompts = try await pending(.permissionPrompts, broker) + pending(.perObjectRequests, broker)
            let fd = try UnixSocket.connect(path: broker.appSocket)
            _ = RawFrames.pipeline([cheapCall], to: fd)
            let served = try await AppBudgetEndToEndTests.waitForReplies(fd) && RawFrames.firstRefusal(on: fd, timeout: 0.2) == nil
            close(fd)
            if prompts == 0, served {
                // Calls end as their connections' readers see the close: give them a moment.
                try await Task.sleep(for: .milliseconds(500))
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("healthd did not let go of the attacker's resources within 120 s")
    }

    @Test(arguments: Resource.allCases)
    func anAppAtItsCapIsRefusedAndCostsTheOthersNothing(_ resource: Resource) async throws {
        let world = try await Self.world.value
        defer { world.caseFinished() }
        let broker = world.broker
        let hold = Hold()
        defer { hold.release() }

        let refusal = try await Self.reachCap(resource, hold, broker)
        #expect(refusal?.status?.code == .resourceExhausted, "\(resource): \(String(describing: refusal))")
        #expect(refusal?.status?.message.contains(resource.limitMessage) == true, "\(resource): \(String(describing: refusal?.status))")

        let took = try await ServedVictim.isServed(world.victim, "\(resource)")
        // Still held: the victim did not wait for the attacker to give up.
        #expect(hold.allOpen || resource == .connections, "\(resource): healthd closed the attacker before the victim was served")
        if resource.isPrompt { #expect(try await Self.pending(resource, broker) == Self.promptsPerApp, "\(resource): the prompts ended early") }
        let resident = world.residentKiB
        world.peakResidentKiB.withLock { $0 = max($0, resident) }
        print("AppResourceCap \(resource): victim's save and watch \(took), healthd resident \(resident >> 10) MiB")
        #expect(resident < Self.residentBoundKiB, "\(resource): healthd holds \(resident >> 10) MiB")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
        hold.release()
        try await Self.settle(broker)
    }

    /// A call refused at a prompt limit is refused before the store is asked anything: a
    /// per-object request reads up to 1,000 candidates of every app before it is filed, and an
    /// app at its limit could otherwise make healthd do that read with each refused call, 64 at
    /// a time. Shown with the store locked: a call that reached the store would fail as locked
    /// (errorDatabaseInaccessible), one refused up front names the limit. Failed before the
    /// fix for per-object requests (`CallDispatcher` checked them against the type-wide prompts).
    @Test(arguments: [Resource.permissionPrompts, .perObjectRequests])
    func aRefusalAtAPromptLimitReadsNothing(_ resource: Resource) async throws {
        let world = try await Self.world.value
        defer { world.caseFinished() }
        let broker = world.broker
        let hold = Hold()
        defer { hold.release() }
        let call = resource == .permissionPrompts ? Self.prompt : Self.perObjectRequest
        let fd = try hold.connect(broker)
        _ = RawFrames.pipeline(Array(repeating: call, count: Self.promptsPerApp), to: fd)
        try #require(try await Self.waitUntilPending(resource, count: Self.promptsPerApp, broker), "the prompts were not filed")
        let lock = try await broker.healthctl(["lock"])
        try #require(lock.status == 0, "\(lock)")
        _ = RawFrames.pipeline([call], firstID: UInt64(Self.promptsPerApp + 1), to: fd)
        let refusal = RawFrames.firstRefusal(on: fd)
        let unlock = try await broker.healthctl(["unlock"])
        #expect(unlock.status == 0, "\(unlock)")
        #expect(refusal?.callID == UInt64(Self.promptsPerApp + 1), "\(resource): \(String(describing: refusal))")
        #expect(refusal?.status?.code == .resourceExhausted, "\(resource): \(String(describing: refusal?.status))")
        #expect(refusal?.status?.message.contains(resource.limitMessage) == true, "\(resource): \(String(describing: refusal?.status))")
        hold.release()
        try await Self.settle(broker)
    }
}

extension AppResourceCapEndToEndTests.Resource {
    var isPrompt: Bool { self == .permissionPrompts || self == .perObjectRequests }
}
