import Foundation
import TestSupport
import HealthIPC
import HealthModel
import HealthWire

/// This test process acting as an installed app on the app socket: saves step counts and reads
/// back what the store holds.
struct SavingApp: Sendable {
    static let stepCount = HKQuantityTypeIdentifier.stepCount.rawValue

    /// Installs this test process as `appID` and grants it read and share for step counts.
    static func install(_ appID: String, root: String,
                        healthctl: @Sendable ([String]) async throws -> ProcessResult) async throws {
        let manifest: [String: Any] = [
            "id": appID, "displayName": "Test \(appID)", "executable": Products.testProcessExecutable, "version": "1.0",
            "NSHealthShareUsageDescription": "reads for a test", "NSHealthUpdateUsageDescription": "writes for a test",
        ]
        let path = root + "/\(appID).json"
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
        for arguments in [["apps", "install", path], ["apps", "allow-direct", appID], ["grant", appID, "read", "stepCount"], ["grant", appID, "share", "stepCount"]] {
            let result = try await healthctl(arguments)
            guard result.status == 0 else { throw CommandFailed(result: result) }
        }
    }

    let client: RPCClient

    init(socket: String) throws {
        client = try RPCClient.connect(path: socket)
    }

    func close() { client.close() }

    /// Saves one step-count sample; returns the UUID healthd acknowledged it with.
    func save(_ index: Int) async throws -> UUID {
        try await save(index..<index + 1)[0]
    }

    /// Saves one step-count sample per index, in one call; returns the acknowledged UUIDs.
    func save(_ indices: Range<Int>) async throws -> [UUID] {
        let records = indices.map { index in
            let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
            return SampleRecord(uuid: UUID(), typeIdentifier: Self.stepCount, startDate: start,
                                endDate: start.addingTimeInterval(60), value: .quantity(Double(index % 200), unit: "count"))
        }
        let saved = try SavedUUIDs(wire: await client.unary(HealthStoreMethod.save.rawValue, SampleList(records).wireBytes()))
        return saved.uuids
    }

    /// Every step-count sample the store holds.
    func storedUUIDs() async throws -> Set<UUID> {
        var found: Set<UUID> = []
        for try await batch in client.serverStream(HealthStoreMethod.querySamples.rawValue,
                                                   SampleQuerySpec(typeIdentifier: Self.stepCount).wireBytes()) {
            found.formUnion(try SampleList(wire: batch).samples.map(\.uuid))
        }
        return found
    }
}
