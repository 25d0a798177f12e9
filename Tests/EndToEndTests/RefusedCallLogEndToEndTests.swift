import Foundation
import HealthIPC
import HealthModel
import HealthWire
import TestSupport
import Testing

/// Refused calls reach the access log (action `refused`) with the app, the types and the
/// HealthKit code — and never the values the refused request carried.
@Suite(.timeLimit(.minutes(10)), .serialized) struct RefusedCallLogEndToEndTests {
    let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue

    /// One line of `healthctl log --json`.
    struct LoggedRefusal: Decodable, Equatable {
        let actor: String
        let app: String?
        let action: String
        let types: [String]
        let count: Int
        let detail: String
    }

    func refusals(_ broker: BrokerProcess) async throws -> (entries: [LoggedRefusal], text: String) {
        let listed = try await broker.healthctl(["log", "--json"])
        #expect(listed.status == 0, "\(listed)")
        let entries = try listed.stdout.split(separator: "\n").map { try JSONDecoder().decode(LoggedRefusal.self, from: Data($0.utf8)) }
        return (entries.filter { $0.action == "refused" }, listed.stdout)
    }

    @Test func refusedAppCallsAreLoggedWithoutTheirValues() async throws {
        let broker = try BrokerProcess()
        // This test process is the app, calling the app socket itself (credential binding).
        let app = try await broker.install(appID: "org.test.refused", executable: Products.testProcessExecutable, read: false)
        try await broker.allowDirect(app)
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        let value = 173.25  // a value that must not appear anywhere in the log
        let sample = SampleRecord(uuid: UUID(), typeIdentifier: heartRate, startDate: Date(timeIntervalSince1970: 1_700_000_000),
                                  endDate: Date(timeIntervalSince1970: 1_700_000_000), value: .quantity(value, unit: "count/min"))

        // 1. A save without share permission.
        await #expect(throws: RPCStatus.self) { _ = try await client.unary(HealthStoreMethod.save.rawValue, SampleList([sample]).wireBytes()) }
        // 2. A request for read access by an app whose manifest has no read usage description.
        await #expect(throws: RPCStatus.self) {
            _ = try await client.unary(HealthStoreMethod.requestAuthorization.rawValue, AuthorizationTypes(share: [], read: [heartRate]).wireBytes())
        }
        // 3. Bytes that are no message at all.
        await #expect(throws: RPCStatus.self) { _ = try await client.unary(HealthStoreMethod.save.rawValue, [0x0A, 0xFF, 0x01]) }
        // 4. A manager method on the app socket.
        await #expect(throws: RPCStatus.self) {
            _ = try await client.unary(HealthManagerMethod.setGrants.rawValue, AppGrants(appID: app, decisions: [GrantDecision(heartRate, .read, .authorized)]).wireBytes())
        }
        // A call that succeeds is not a refusal.
        _ = try await client.unary(HealthStoreMethod.authorizationStatus.rawValue, TypeIdentifierMessage(heartRate).wireBytes())

        let (entries, text) = try await refusals(broker)
        #expect(entries == [
            LoggedRefusal(actor: app, app: app, action: "refused", types: [heartRate], count: 0,
                          detail: "\(HealthStoreMethod.save.rawValue): errorAuthorizationNotDetermined"),
            LoggedRefusal(actor: app, app: app, action: "refused", types: [], count: 0,
                          detail: "\(HealthStoreMethod.requestAuthorization.rawValue): errorInvalidArgument"),
            LoggedRefusal(actor: app, app: app, action: "refused", types: [], count: 0,
                          detail: "\(HealthStoreMethod.save.rawValue): errorInvalidArgument"),
            LoggedRefusal(actor: app, app: app, action: "refused", types: [], count: 0,
                          detail: "\(HealthManagerMethod.setGrants.rawValue): errorAuthorizationDenied"),
        ], "\(entries)")
        #expect(!text.contains("173.25"), "a refused save's value reached the log: \(text)")
        let verified = try await broker.healthctl(["log", "verify"])
        #expect(verified.status == 0, "\(verified)")
    }

    @Test func aConnectionFromAnUninstalledExecutableIsLoggedAsRefused() async throws {
        let broker = try BrokerProcess()
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        await #expect(throws: RPCStatus.self) {
            _ = try await client.unary(HealthStoreMethod.authorizationStatus.rawValue, TypeIdentifierMessage(heartRate).wireBytes())
        }
        let (entries, _) = try await refusals(broker)
        #expect(entries == [LoggedRefusal(actor: AccessLogEntry.unidentifiedActor, app: nil, action: "refused", types: [], count: 0,
                                          detail: "connection refused: no app installed for \(Products.testProcessExecutable)")])
    }
}
