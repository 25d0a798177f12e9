import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// DESIGN.md §7.9 "every access is recorded", for the long-running reads: an app that opens an
/// anchored query, an observer or a watched statistics collection and reads its first delivery
/// leaves a `read` entry naming the type in the access log — also when it ends the query by
/// cancelling it, the only way a long-running query ends from the app's side. One query kind
/// per case, each on a fresh healthd.
@Suite(.timeLimit(.minutes(10)), .serialized) struct LongRunningReadLogTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue

    enum Kind: String, CaseIterable, CustomStringConvertible {
        case anchored, observer, collection
        var description: String { rawValue }

        var request: (HealthStoreMethod, [UInt8]) {
            switch self {
            case .anchored:
                (.queryAnchored, AnchoredQuerySpec(typeIdentifier: steps, longRunning: true).wireBytes())
            case .observer:
                (.observeChanges, TypePredicateSpec(typeIdentifier: steps).wireBytes())
            case .collection:
                (.watchStatisticsCollection, StatisticsCollectionSpec(
                    statistics: StatisticsQuerySpec(typeIdentifier: steps, options: [.cumulativeSum]),
                    anchor: Date(timeIntervalSince1970: 1_699_920_000), interval: StatisticsInterval(hours: 1),
                    timeZoneIdentifier: "UTC").wireBytes())
            }
        }
    }

    @Test(arguments: Kind.allCases) func aCancelledLongRunningReadIsLogged(_ kind: Kind) async throws {
        let broker = try BrokerProcess()
        let appID = try await broker.install(appID: "org.test.long-reader", executable: Products.testProcessExecutable)
        try await broker.set(appID, "read", Self.steps, allowed: true)
        try await broker.allowDirect(appID)
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        let (method, payload) = kind.request
        let firstDelivery = Task {
            for try await _ in client.serverStream(method.rawValue, payload) { return true }
            return false
        }
        let delivered = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { try await firstDelivery.value }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        try #require(delivered, "the \(kind) query delivered nothing")

        let deadline = Date().addingTimeInterval(120)
        var reads: [String] = []
        while reads.isEmpty, Date() < deadline {
            let log = try await broker.healthctl(["log", "--app", appID, "--json"])
            reads = log.lines.filter { $0.contains(#""action":"read""#) && $0.contains(Self.steps) }
            if reads.isEmpty { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(!reads.isEmpty, "the \(kind) query's read of \(Self.steps) is not in the access log")
    }
}
