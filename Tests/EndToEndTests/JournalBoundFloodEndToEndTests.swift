import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// The journal bound holds for every call, not only for writes (SECURITY.md "Per-app storage";
/// session 21 availability review, finding 2). While the store is locked, calls that store
/// nothing still journal their access-log entry: `RequestAuthorization` for types already decided
/// (no prompt, so the prompt limit never applies) and `OfferDocuments`. Those entries were counted
/// and never refused, so one app journaled 17 MB at an 8 MiB bound and the unlock merged 60,206
/// changes before serving anyone. Now `CallDispatcher` refuses, while locked, every call that may
/// journal from an app that has journaled its bound: the app's journal stays within the bound
/// plus its calls in flight, and so does what the unlock merges.
@Suite(.timeLimit(.minutes(10)), .serialized) struct JournalBoundFloodEndToEndTests {
    static let flooder = "org.test.journal-flood"
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let boundKiB = 16
    static let calls = 600
    /// Calls in flight at once on the app's one connection (the per-app limit is 64).
    static let window = 32
    /// The most one of these calls' entries takes (a `.request` entry is about 280 bytes).
    static let largestEntry = 512
    /// The least: far below the real size, so the accepted count below is a generous ceiling.
    static let smallestEntry = 150

    enum Call: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case requestAuthorization
        case offerDocuments

        var method: String {
            switch self {
            case .requestAuthorization: HealthStoreMethod.requestAuthorization.rawValue
            case .offerDocuments: HealthStoreMethod.offerDocuments.rawValue
            }
        }

        var payload: [UInt8] {
            switch self {
            // Both already decided (granted before the lock): no prompt is made.
            case .requestAuthorization: AuthorizationTypes(share: [steps], read: [steps]).wireBytes()
            case .offerDocuments: SampleQuerySpec(typeIdentifier: HKDocumentTypeIdentifier.CDA.rawValue).wireBytes()
            }
        }

        var testDescription: String { rawValue }
    }

    /// 600 calls at a 16 KiB journal bound, 32 in flight: the calls past the bound are refused
    /// with errorDatabaseInaccessible saying the store is locked, the app's journal use stays
    /// within the bound plus its calls in flight, the unlock merges no more than was accepted
    /// (and the rate-limited refusals), and the app is served again once unlocked. Before the
    /// fix all 600 were accepted and journaled.
    @Test(arguments: Call.allCases)
    func callsThatOnlyLogAreRefusedPastTheJournalBound(_ call: Call) async throws {
        let broker = try BrokerProcess(extraArguments: ["--journal-bound-kib", "\(Self.boundKiB)"])
        let app = try await RawApp.install(Self.flooder, on: broker, grants: [("share", Self.steps), ("read", Self.steps)])
        defer { app.close(); withExtendedLifetime(broker) {} }
        let lock = try await broker.healthctl(["lock"])
        #expect(lock.status == 0, "\(lock)")

        let outcomes = await Self.flood(app.client, call)
        let accepted = outcomes.filter { $0 == nil }.count
        let refusals = outcomes.compactMap { $0 }
        print("\(call.rawValue) while locked: \(accepted) of \(Self.calls) accepted")
        let bound = Self.boundKiB * 1_024
        #expect(!refusals.isEmpty, "\(Self.calls) \(call.rawValue) calls journaled at a \(Self.boundKiB) KiB bound, none refused")
        let otherwise = refusals.filter { $0.healthKitCode != .errorDatabaseInaccessible || !$0.message.contains("locked") }
        #expect(otherwise.isEmpty, "\(otherwise.count) refused otherwise, as \(otherwise.prefix(2))")
        #expect(accepted <= bound / Self.smallestEntry + 64, "\(accepted) calls journaled at a \(bound)-byte bound")
        let journaled = try #require(try await StorageBoundEndToEndTests.storage { try await broker.healthctl($0) }[Self.flooder]?.journaled)
        #expect(journaled >= bound - Self.largestEntry && journaled <= bound + 64 * Self.largestEntry,
                "journaled \(journaled) bytes at a \(bound)-byte bound")

        let unlock = try await broker.healthctl(["unlock"])
        #expect(unlock.status == 0, "\(unlock)")
        let merged = try #require(Self.merged(unlock.stdout), "\(unlock)")
        // The accepted calls' entries, and the refusals' (rate-limited, a handful).
        #expect(merged <= accepted + 16, "the unlock merged \(merged) changes after \(accepted) accepted calls")
        let log = try await broker.healthctl(["log", "--app", Self.flooder])
        #expect(log.stdout.contains("journal bound reached while locked"), "the access log has no refusal: \(log)")
        #expect(await app.failure(.requestAuthorization, AuthorizationTypes(share: [Self.steps], read: [Self.steps])) == nil,
                "the app is not served after the unlock")
    }

    /// Each call's failure, or nil when it was answered; `window` at a time on one connection.
    static func flood(_ client: RPCClient, _ call: Call) async -> [RPCStatus?] {
        let (method, payload) = (call.method, call.payload)
        return await withTaskGroup(of: RPCStatus?.self) { group in
            var outcomes: [RPCStatus?] = []
            var started = 0
            func start() {
                started += 1
                group.addTask {
                    do {
                        _ = try await client.unary(method, payload)
                        return nil
                    } catch let status as RPCStatus {
                        return status
                    } catch {
                        return RPCStatus(.unknown, "\(error)")
                    }
                }
            }
            while started < min(window, calls) { start() }
            while let outcome = await group.next() {
                outcomes.append(outcome)
                if started < calls { start() }
            }
            return outcomes
        }
    }

    /// "Unlocked: merged N changes made while locked."
    static func merged(_ output: String) -> Int? {
        guard let range = output.range(of: "merged ") else { return nil }
        return Int(output[range.upperBound...].prefix { $0.isNumber })
    }
}
