import Foundation
import HealthIPC
import HealthModel
import HealthWire
import TestSupport

/// This test process as an installed app, for the locked-store tests: saves step counts that
/// carry a distinctive metadata string (to scan the store's files for), runs each query kind,
/// and reports the status a call or stream ended with.
struct LockedStoreApp: Sendable {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    let client: RPCClient

    init(socket: String) throws {
        client = try RPCClient.connect(path: socket)
    }

    func close() { client.close() }

    /// One step-count sample per index in one save, each with `marker` in its metadata.
    func save(_ indices: Range<Int>, marker: String) async throws -> [UUID] {
        let records = indices.map { index in
            let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60)
            return SampleRecord(uuid: UUID(), typeIdentifier: Self.steps, startDate: start, endDate: start.addingTimeInterval(60),
                                value: .quantity(Double(index % 200), unit: "count"),
                                metadata: ["LockedStoreMarker": .string("\(marker)-\(index)")])
        }
        return try SavedUUIDs(wire: await client.unary(HealthStoreMethod.save.rawValue, SampleList(records).wireBytes())).uuids
    }

    /// A step-count sample at `minute` carrying a sync identifier and version.
    static func synced(_ identifier: String, version: Double, minute: Int) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(minute) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(60),
                            value: .quantity(Double(minute), unit: "count"),
                            metadata: [HKMetadataKeySyncIdentifier: .string(identifier), HKMetadataKeySyncVersion: .number(version)])
    }

    func save(_ records: [SampleRecord]) async throws -> [UUID] {
        try SavedUUIDs(wire: await client.unary(HealthStoreMethod.save.rawValue, SampleList(records).wireBytes())).uuids
    }

    /// Deletes step-count samples by UUID; the count healthd answered.
    func delete(_ uuids: [UUID]) async throws -> Int {
        let deletion = ObjectDeletion(uuids.map { ObjectReference(typeIdentifier: Self.steps, uuid: $0) })
        return try DeletedCount(wire: await client.unary(HealthStoreMethod.deleteObjects.rawValue, deletion.wireBytes())).count
    }

    /// Every step-count sample the store holds, as UUIDs (duplicates kept, to catch them).
    func storedUUIDs() async throws -> [UUID] {
        var found: [UUID] = []
        for try await batch in client.serverStream(HealthStoreMethod.querySamples.rawValue,
                                                   SampleQuerySpec(typeIdentifier: Self.steps).wireBytes()) {
            found += try SampleList(wire: batch).samples.map(\.uuid)
        }
        return found
    }

    /// An anchored query over steps and heart rate (`queryDescriptors:`).
    static func twoTypes(longRunning: Bool) -> AnchoredQuerySpec {
        AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: steps),
                                        TypePredicateSpec(typeIdentifier: HKQuantityTypeIdentifier.heartRate.rawValue)],
                          longRunning: longRunning)
    }

    /// Every query kind an app can run, with a payload its handler accepts.
    static var queryKinds: [(name: String, method: HealthStoreMethod, payload: [UInt8], streaming: Bool)] {
        let statistics = StatisticsQuerySpec(typeIdentifier: steps, options: .cumulativeSum)
        let collection = StatisticsCollectionSpec(statistics: statistics, anchor: Date(timeIntervalSince1970: 1_700_000_000),
                                                  interval: StatisticsInterval(days: 1), timeZoneIdentifier: "UTC")
        return [
            ("samples", .querySamples, SampleQuerySpec(typeIdentifier: steps).wireBytes(), true),
            ("anchored", .queryAnchored, AnchoredQuerySpec(typeIdentifier: steps).wireBytes(), true),
            ("anchored over two types", .queryAnchored, twoTypes(longRunning: false).wireBytes(), true),
            ("sources", .querySources, TypePredicateSpec(typeIdentifier: steps).wireBytes(), false),
            ("statistics", .queryStatistics, statistics.wireBytes(), false),
            ("statistics collection", .queryStatisticsCollection, collection.wireBytes(), true),
            ("correlations", .queryCorrelations,
             CorrelationQuerySpec(typeIdentifier: HKCorrelationTypeIdentifier.bloodPressure.rawValue).wireBytes(), true),
            ("activity summaries", .queryActivitySummaries, ActivitySummaryQuerySpec(timeZoneIdentifier: "UTC").wireBytes(), true),
            ("route data", .queryRouteData, RouteDataQuery(routeUUID: UUID()).wireBytes(), true),
            ("series data", .querySeriesData,
             SeriesDataQuery(sampleUUID: UUID(), typeIdentifier: HKDataTypeIdentifierHeartbeatSeries).wireBytes(), true),
            ("characteristic", .getCharacteristic,
             TypeIdentifierMessage(HKCharacteristicTypeIdentifier.dateOfBirth.rawValue).wireBytes(), false),
        ]
    }

    /// The long-running query kinds: they stream until cancelled or ended.
    static var longRunningKinds: [(name: String, method: HealthStoreMethod, payload: [UInt8])] {
        let statistics = StatisticsQuerySpec(typeIdentifier: steps, options: .cumulativeSum)
        let collection = StatisticsCollectionSpec(statistics: statistics, anchor: Date(timeIntervalSince1970: 1_700_000_000),
                                                  interval: StatisticsInterval(days: 1), timeZoneIdentifier: "UTC")
        return [
            ("observer", .observeChanges, TypePredicateSpec(typeIdentifier: steps).wireBytes()),
            ("anchored with updates", .queryAnchored, AnchoredQuerySpec(typeIdentifier: steps, longRunning: true).wireBytes()),
            ("anchored over two types with updates", .queryAnchored, twoTypes(longRunning: true).wireBytes()),
            ("statistics collection with updates", .watchStatisticsCollection, collection.wireBytes()),
            ("activity summaries with updates", .watchActivitySummaries, ActivitySummaryQuerySpec(timeZoneIdentifier: "UTC").wireBytes()),
        ]
    }

    /// Runs a call to its end; the status it failed with, or nil when it succeeded.
    func outcome(_ method: HealthStoreMethod, _ payload: [UInt8], streaming: Bool) async -> RPCStatus? {
        do {
            if streaming {
                for try await _ in client.serverStream(method.rawValue, payload) {}
            } else {
                _ = try await client.unary(method.rawValue, payload)
            }
            return nil
        } catch let status as RPCStatus {
            return status
        } catch {
            return RPCStatus(.unknown, "\(error)")
        }
    }
}
