import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Withdrawing a direct connection's identity ends the connections it admitted at once (issue
/// 12): `healthctl apps deny-direct` and a reinstall naming another executable close every open
/// direct connection of the app, so its next call fails on the same connection, without any
/// reconnect — an app cannot keep a connection open to outlive the user's decision.
@Suite(.timeLimit(.minutes(10)), .serialized) struct DirectConnectionWithdrawalTests {
    @Test func denyDirectEndsTheAppsOpenDirectConnectionsAtOnce() async throws {
        let broker = try BrokerProcess()
        let appID = try await broker.install(appID: "org.test.withdrawn", executable: Products.testProcessExecutable)
        try await broker.allowDirect(appID)
        let first = try RPCClient.connect(path: broker.appSocket)
        defer { first.close() }
        let second = try RPCClient.connect(path: broker.appSocket)
        defer { second.close() }
        #expect(await Self.call(first) == nil)
        #expect(await Self.call(second) == nil)

        // Control: a change that withdraws nothing (the opt-in given again) leaves them open.
        try await broker.allowDirect(appID)
        #expect(await Self.call(first) == nil, "a connection ended although nothing was withdrawn")

        #expect(try await broker.healthctl(["apps", "deny-direct", appID]).status == 0)
        #expect(await Self.call(first) != nil, "an open direct connection was still served after deny-direct")
        #expect(await Self.call(second) != nil, "an open direct connection was still served after deny-direct")
        #expect(try await broker.healthctl(["status"]).status == 0, "healthd stopped serving the manager")
    }

    @Test func aReinstallNamingAnotherExecutableEndsTheOldOnesDirectConnections() async throws {
        let broker = try BrokerProcess()
        let appID = try await broker.install(appID: "org.test.moved", executable: Products.testProcessExecutable)
        try await broker.allowDirect(appID)
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        #expect(await Self.call(client) == nil)
        try await broker.install(appID: appID, executable: BrokerProcess.clientExecutable)
        #expect(await Self.call(client) != nil, "a connection of the old executable was still served after the reinstall")
    }

    /// nil when the call on `client` is served, else how it failed.
    private static func call(_ client: RPCClient) async -> RPCStatus? {
        do {
            _ = try await client.unary(HealthStoreMethod.authorizationStatus.rawValue,
                                       TypeIdentifierMessage(HKQuantityTypeIdentifier.stepCount.rawValue).wireBytes())
            return nil
        } catch let status as RPCStatus {
            return status
        } catch {
            return RPCStatus(.unknown, "\(error)")
        }
    }
}
