import Foundation
import HealthIPC
import HealthModel
import HealthWire
import TestSupport

/// This test process acting as an installed app that speaks the wire protocol directly, to
/// show what the broker itself refuses — the SDK would have stopped these saves first.
struct RawApp {
    let client: RPCClient

    /// Installs this test process as `appID` with the given grants (`[access, type]` pairs, as
    /// `healthctl grant` takes them) and connects to the app socket.
    static func install(_ appID: String, grants: [(String, String)], on broker: BrokerProcess) async throws -> RawApp {
        try await broker.install(appID: appID, executable: Products.testProcessExecutable)
        for (access, type) in grants { try await broker.set(appID, access, type, allowed: true) }
        return RawApp(client: try RPCClient.connect(path: broker.appSocket))
    }

    /// Saves `records` in one call; the broker's refusal, or nil when it accepted them.
    func saveRefusal(_ records: [SampleRecord]) async -> RPCStatus? {
        do {
            _ = try await client.unary(HealthStoreMethod.save.rawValue, SampleList(records).wireBytes())
            return nil
        } catch {
            return error as? RPCStatus ?? RPCStatus(.unknown, "\(error)")
        }
    }
}
