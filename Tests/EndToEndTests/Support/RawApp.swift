import Foundation
import HealthIPC
import HealthModel
import HealthWire
import TestSupport

/// This test process as an installed app speaking the protocol directly, for what the SDK
/// cannot express: UUIDs of objects the app cannot see, and payloads the SDK would refuse.
struct RawApp: Sendable {
    let client: RPCClient

    /// Installs this test process as `appID` with `grants` (access, type) and connects.
    static func install(_ appID: String, on broker: BrokerProcess, grants: [(String, String)]) async throws -> RawApp {
        try await broker.install(appID: appID, executable: Products.testProcessExecutable)
        try await broker.allowDirect(appID)
        for (access, type) in grants { try await broker.set(appID, access, type, allowed: true) }
        return RawApp(client: try RPCClient.connect(path: broker.appSocket))
    }

    func close() { client.close() }

    func save(_ records: [SampleRecord]) async throws -> [UUID] {
        try SavedUUIDs(wire: await client.unary(HealthStoreMethod.save.rawValue, SampleList(records).wireBytes())).uuids
    }

    func query(_ spec: SampleQuerySpec) async throws -> [SampleRecord] {
        var found: [SampleRecord] = []
        for try await batch in client.serverStream(HealthStoreMethod.querySamples.rawValue, spec.wireBytes()) {
            found += try SampleList(wire: batch).samples
        }
        return found
    }

    /// Saves `records` in one call; the broker's refusal, or nil when it accepted them.
    func saveRefusal(_ records: [SampleRecord]) async -> RPCStatus? {
        await failure(.save, SampleList(records))
    }

    /// Runs a unary call and returns the status it failed with, or nil when it succeeded.
    func failure(_ method: HealthStoreMethod, _ message: some WireMessage) async -> RPCStatus? {
        do {
            _ = try await client.unary(method.rawValue, message.wireBytes())
            return nil
        } catch let status as RPCStatus {
            return status
        } catch {
            return RPCStatus(.unknown, "\(error)")
        }
    }
}
