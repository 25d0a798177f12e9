import Foundation
import TestSupport
import HealthIPC
import HealthModel
import HealthWire
import Testing

/// healthd's save converts a decoded batch to canonical units and replaces the identity fields
/// where the batch lies (issue 17: no copies of the batch): what is stored is the canonical
/// value under the connection's app, whatever the client sent — the SDK no longer converts
/// before sending, so healthd's conversion is the only one.
@Suite(.timeLimit(.minutes(10))) struct SaveCanonicalEndToEndTests {
    static let distance = HKQuantityTypeIdentifier.distanceWalkingRunning.rawValue
    static let temperature = HKQuantityTypeIdentifier.bodyTemperature.rawValue

    @Test func aBatchIsStoredInCanonicalUnitsUnderTheConnectionsApp() async throws {
        let broker = try BrokerProcess()
        let appID = try await broker.install(appID: "org.test.canonicalsaver", executable: Products.testProcessExecutable)
        try await broker.allowDirect(appID)
        for type in [Self.distance, Self.temperature] {
            for access in ["read", "share"] { try await broker.set(appID, access, type, allowed: true) }
        }
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let forged = SourceRecord(bundleIdentifier: "org.test.someoneelse", name: "Someone else", version: "9")
        let records = [
            SampleRecord(uuid: UUID(), typeIdentifier: Self.distance, startDate: start, endDate: start.addingTimeInterval(60),
                         value: .quantity(1.5, unit: "km"), source: forged),
            SampleRecord(uuid: UUID(), typeIdentifier: Self.temperature, startDate: start, endDate: start,
                         value: .quantity(98.6, unit: "degF"), source: forged),
            SampleRecord(uuid: UUID(), typeIdentifier: Self.distance, startDate: start.addingTimeInterval(60),
                         endDate: start.addingTimeInterval(120), value: .quantity(250, unit: "m")),
        ]
        _ = try await client.unary(HealthStoreMethod.save.rawValue, SampleList(records).wireBytes())

        var stored: [SampleRecord] = []
        for type in [Self.distance, Self.temperature] {
            for try await batch in client.serverStream(HealthStoreMethod.querySamples.rawValue,
                                                       SampleQuerySpec(typeIdentifier: type).wireBytes()) {
                stored += try SampleList(wire: batch).samples
            }
        }
        let values = stored.map { record -> String in
            guard case let .quantity(value, unit) = record.value else { return "not a quantity" }
            return String(format: "%.4f %@", value, unit)
        }
        #expect(values == ["1500.0000 m", "250.0000 m", "37.0000 degC"], "\(stored)")
        #expect(stored.map { $0.source?.bundleIdentifier } == [appID, appID, appID])
    }
}
