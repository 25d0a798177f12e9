import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// `healthctl apps remove` ends a direct (credential-bound) connection of the app too, with the
/// status the SDK turns into errorAuthorizationDenied: a stream it has open ends, its next call
/// on the same connection fails, and a reconnect is refused. (Launch-bound apps, confined, as
/// root and as an unprivileged user: SandboxTests' AppRemovalTests.)
@Suite(.timeLimit(.minutes(10)), .serialized) struct AppRemovalConnectionTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue

    @Test func removalEndsADirectConnectionsStreamItsNextCallAndTheReconnect() async throws {
        let broker = try BrokerProcess()
        let appID = try await broker.install(appID: "org.test.removed-direct", executable: Products.testProcessExecutable)
        try await broker.allowDirect(appID)
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        #expect(await Self.call(client) == nil, "positive control: the app is served before its removal")
        let observer = Task {
            var updates = 0
            do {
                for try await _ in client.serverStream(HealthStoreMethod.observeChanges.rawValue,
                                                       TypePredicateSpec(typeIdentifier: Self.steps).wireBytes()) {
                    updates += 1
                }
                return (updates, RPCStatus?.none)
            } catch {
                return (updates, error as? RPCStatus)
            }
        }
        // The observer's initial update shows the stream is running before the removal.
        try await Task.sleep(for: .milliseconds(300))

        let removed = try await broker.healthctl(["apps", "remove", appID, "--keep-data"])
        try #require(removed.status == 0, "\(removed)")
        let ended = try await Self.value(of: observer, within: .seconds(30))
        #expect(ended?.1?.code == .unauthenticated && ended?.1?.healthKitCode == .errorAuthorizationDenied,
                "the observer did not end with errorAuthorizationDenied: \(String(describing: ended))")
        #expect(ended?.1?.message.contains("removed") == true, "the status does not say why: \(String(describing: ended))")

        let next = await Self.call(client)
        #expect(next?.healthKitCode == .errorAuthorizationDenied, "a call on the removed app's connection was served: \(String(describing: next))")
        let reconnected = try RPCClient.connect(path: broker.appSocket)
        defer { reconnected.close() }
        #expect(await Self.call(reconnected)?.code == .unauthenticated, "a removed app connected again")
        #expect(try await broker.healthctl(["status"]).status == 0, "healthd stopped serving the manager")
    }

    /// nil when the call on `client` is served, else how it failed.
    static func call(_ client: RPCClient) async -> RPCStatus? {
        do {
            _ = try await client.unary(HealthStoreMethod.authorizationStatus.rawValue, TypeIdentifierMessage(steps).wireBytes())
            return nil
        } catch let status as RPCStatus {
            return status
        } catch {
            return RPCStatus(.unknown, "\(error)")
        }
    }

    /// The task's value, or nil if it has none within `limit` (the task is then cancelled).
    static func value<T: Sendable>(of task: Task<T, Never>, within limit: Duration) async throws -> T? {
        let deadline = ContinuousClock.now + limit
        let box = ValueBox<T>()
        let waiter = Task { box.set(await task.value) }
        while box.get() == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if box.get() == nil { task.cancel() }
        _ = waiter
        return box.get()
    }
}

private final class ValueBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T?
    func set(_ new: T) { lock.withLock { value = new } }
    func get() -> T? { lock.withLock { value } }
}
