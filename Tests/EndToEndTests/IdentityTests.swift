import Foundation
import TestSupport
import HealthIPC
import HealthModel
import HealthWire
import Testing

/// Identity comes from the connection, never from a message (DESIGN.md §3): unknown executables
/// get nothing, admin methods do not exist on the app socket, and source fields are ignored.
@Suite(.timeLimit(.minutes(10)), .serialized) struct IdentityTests {
    @Test func anUnknownExecutableIsRefusedWithAClearError() async throws {
        let broker = try BrokerProcess()
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        do {
            _ = try await client.unary(HealthStoreMethod.authorizationStatus.rawValue,
                                       TypeIdentifierMessage(HKQuantityTypeIdentifier.heartRate.rawValue).wireBytes())
            Issue.record("an unknown executable was served")
        } catch let status as RPCStatus {
            #expect(status.code == .unauthenticated || status.code == .unavailable)
            #expect(status.message.contains("no installed app manifest names the executable"))
            #expect(status.message.contains(Products.testProcessExecutable))
        }
    }

    @Test func theAdminSocketRefusesProcessesThatAreNotTheManager() async throws {
        let broker = try BrokerProcess()
        let client = try RPCClient.connect(path: broker.adminSocket)
        defer { client.close() }
        await #expect(throws: RPCStatus.self) {
            _ = try await client.unary(HealthManagerMethod.listApps.rawValue, [])
        }
        // healthctl, a trusted tool, is served.
        let status = try await broker.healthctl(["status"])
        #expect(status.status == 0, "\(status)")
    }

    @Test func noAdminMethodIsReachableOverTheAppSocket() async throws {
        let broker = try BrokerProcess()
        try await broker.install(appID: "org.test.identity", executable: Products.testProcessExecutable)
        try await broker.allowDirect("org.test.identity")
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        for method in HealthManagerMethod.allCases {
            do {
                _ = try await client.unary(method.rawValue, AppGrants(appID: "org.test.identity").wireBytes())
                Issue.record("\(method.rawValue) answered on the app socket")
            } catch let status as RPCStatus {
                #expect(status.code == .unimplemented, "\(method.rawValue): \(status)")
            }
        }
        // The same connection still serves the app's own methods.
        let reply = try await client.unary(HealthStoreMethod.authorizationStatus.rawValue,
                                           TypeIdentifierMessage(HKQuantityTypeIdentifier.stepCount.rawValue).wireBytes())
        #expect(try StatusValue(wire: reply).rawValue == HKAuthorizationStatus.notDetermined.rawValue)
    }

    @Test func sourceAndUUIDFieldsSentByAnAppAreIgnored() async throws {
        let broker = try BrokerProcess()
        let appID = try await broker.install(appID: "org.test.honest", executable: Products.testProcessExecutable)
        try await broker.allowDirect(appID)
        let grant = try await broker.healthctl(["grant", appID, "share", "heartRate"])
        #expect(grant.status == 0, "\(grant)")

        let forgedUUID = UUID()
        let forged = SampleRecord(
            uuid: forgedUUID, typeIdentifier: HKQuantityTypeIdentifier.heartRate.rawValue,
            startDate: Date(timeIntervalSince1970: 1_700_000_000), endDate: Date(timeIntervalSince1970: 1_700_000_060),
            value: .quantity(72, unit: "count/min"),
            source: SourceRecord(bundleIdentifier: "org.victim.app", name: "Victim", version: "9"))
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        let saved = try SavedUUIDs(wire: await client.unary(HealthStoreMethod.save.rawValue, SampleList([forged]).wireBytes()))
        #expect(saved.uuids.count == 1)
        #expect(saved.uuids[0] != forgedUUID)

        let listing = try await broker.healthctl(["samples", "heartRate", "--json"])
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.stdout.contains(appID))
        #expect(!listing.stdout.contains("org.victim.app"))
        #expect(listing.stdout.lowercased().contains(saved.uuids[0].uuidString.lowercased()))
    }

    /// Direct (credential-bound) connections are the weaker mode: refused until the user opts the
    /// app in with healthctl, with an error that names the command; served after; refused again
    /// once withdrawn. `apps list` shows the choice.
    @Test func aDirectConnectionIsServedOnlyAfterTheUsersOptIn() async throws {
        let broker = try BrokerProcess()
        let appID = try await broker.install(appID: "org.test.direct", executable: Products.testProcessExecutable)
        let refused = try #require(await Self.directRefusal(broker), "served without the opt-in")
        #expect(refused.code == .unauthenticated, "\(refused)")
        #expect(refused.message.contains("healthctl apps allow-direct \(appID)"), "\(refused)")
        #expect(refused.message.contains("health-sandbox run \(appID)"), "\(refused)")

        try await broker.allowDirect(appID)
        #expect(await Self.directRefusal(broker) == nil)
        let listed = try await broker.healthctl(["apps", "list"])
        #expect(listed.lines.contains { $0.hasPrefix(appID) && $0.contains("allowed") }, "\(listed)")

        #expect(try await broker.healthctl(["apps", "deny-direct", appID]).status == 0)
        #expect(await Self.directRefusal(broker) != nil, "served after deny-direct")
        #expect(try await broker.healthctl(["apps", "list"]).lines.contains { $0.hasPrefix(appID) && !$0.contains("allowed") })
    }

    /// The opt-in is for the executable installed when the user gave it: a reinstall naming
    /// another binary does not carry it over.
    @Test func theOptInDoesNotCarryOverToAnotherExecutable() async throws {
        let broker = try BrokerProcess()
        try await broker.install(appID: "org.test.moved", executable: BrokerProcess.clientExecutable)
        try await broker.allowDirect("org.test.moved")
        try await broker.install(appID: "org.test.moved", executable: Products.testProcessExecutable)
        let refused = try #require(await Self.directRefusal(broker), "the opt-in carried over to another executable")
        #expect(refused.message.contains("healthctl apps allow-direct org.test.moved"), "\(refused)")
    }

    @Test func optingInAnAppThatIsNotInstalledFailsClearly() async throws {
        let broker = try BrokerProcess()
        let result = try await broker.healthctl(["apps", "allow-direct", "org.test.absent"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("no installed app org.test.absent"), "\(result)")
    }

    /// nil when this test process is served on the app socket, else the refusal.
    private static func directRefusal(_ broker: BrokerProcess) async -> RPCStatus? {
        do {
            let client = try RPCClient.connect(path: broker.appSocket)
            defer { client.close() }
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
