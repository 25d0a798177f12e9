import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// An app allowed to write a type must not be able to stop anyone else reading it (session 14's
/// finding, fixed in session 15): result batches were cut by count (500) alone, while one sample
/// may carry about 280 KB of metadata — 64 entries of 256-byte keys and 4,096-byte values, all
/// within `SampleLimits` — and a device of 8 × 1 KiB. Forty such samples made every reader's
/// answer one frame of about 11 MiB, over `WireLimits.maxFrameBytes` (4 MiB), which the reader
/// refused. Now batches are also cut before `WireLimits.resultBatchBytes` (`AnswerBatching`).
///
/// The writer is this test process (installed, connecting directly, saving maximal samples in
/// saves under the frame limit); the readers are `e2e-client`, a separate sandboxed app, through
/// each answer that streams stored rows — HKSampleQuery, HKAnchoredObjectQuery, HKCorrelationQuery
/// and an HKSampleQuery of the correlation type — and the manager (`healthctl samples`). Each must
/// get every row. With the byte cut disabled (`resultBatchBytes` = Int.max) every reader here
/// fails: the frame backstop ends the call with RESOURCE_EXHAUSTED.
@Suite(.timeLimit(.minutes(10)), .serialized) struct HeavyRowsEndToEndTests {
    static let writer = "org.test.heavy-writer"
    static let reader = "org.test.heavy-reader"
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
    static let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
    static let bloodPressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue
    static let stepSamples = 40
    static let correlations = 8
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// The most metadata a sample may carry: 64 entries, each key 256 bytes, each value 4,096.
    static func maximalMetadata(_ seed: Int) -> [String: MetadataValue] {
        Dictionary(uniqueKeysWithValues: (0..<SampleLimits.maximumMetadataEntries).map { entry in
            let prefix = "org.test.heavy.\(entry)."
            let key = prefix + String(repeating: "k", count: SampleLimits.maximumMetadataKeyBytes - prefix.utf8.count)
            return (key, .string(String(repeating: Character(UnicodeScalar(UInt8(97 + (seed + entry) % 26))),
                                        count: SampleLimits.maximumMetadataStringBytes)))
        })
    }

    /// A device whose every text field is as long as allowed.
    static let maximalDevice: DeviceRecord = {
        let field = String(repeating: "d", count: SampleLimits.maximumDeviceStringBytes)
        return DeviceRecord(name: field, manufacturer: field, model: field, hardwareVersion: field, firmwareVersion: field,
                            softwareVersion: field, localIdentifier: field, udiDeviceIdentifier: field)
    }()

    static func quantity(_ type: String, _ value: Double, unit: String, at index: Int) -> SampleRecord {
        let date = start.addingTimeInterval(Double(index) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: date, endDate: date.addingTimeInterval(30),
                            value: .quantity(value, unit: unit), metadata: maximalMetadata(index), device: maximalDevice)
    }

    /// A blood pressure correlation whose two samples and itself each carry maximal metadata.
    static func heavyBloodPressure(at index: Int) -> SampleRecord {
        let date = start.addingTimeInterval(Double(index) * 60)
        let members = [quantity(systolic, 120, unit: "mmHg", at: index), quantity(diastolic, 80, unit: "mmHg", at: index)]
        return SampleRecord(uuid: UUID(), typeIdentifier: bloodPressure, startDate: date, endDate: date.addingTimeInterval(30),
                            value: .correlation(members), metadata: maximalMetadata(index + 7), device: maximalDevice)
    }

    /// Saves `records` in as few saves as fit a frame each.
    static func save(_ records: [SampleRecord], through client: RPCClient) async throws {
        var pending: [SampleRecord] = []
        for record in records {
            if !pending.isEmpty, SampleList(pending + [record]).wireBytes().count > WireLimits.maxFrameBytes - 1_024 {
                _ = try await client.unary(HealthStoreMethod.save.rawValue, SampleList(pending).wireBytes())
                pending.removeAll()
            }
            pending.append(record)
        }
        if !pending.isEmpty { _ = try await client.unary(HealthStoreMethod.save.rawValue, SampleList(pending).wireBytes()) }
    }

    @Test func maximalRowsAnotherAppWroteReachEveryReader() async throws {
        let broker = try BrokerProcess()
        try await broker.install(appID: Self.writer, executable: Products.testProcessExecutable)
        try await broker.allowDirect(Self.writer)
        try await broker.installClient(Self.reader)
        for type in [Self.steps, Self.systolic, Self.diastolic] {
            try await broker.set(Self.writer, "share", type, allowed: true)
            try await broker.set(Self.reader, "read", type, allowed: true)
        }
        let client = try RPCClient.connect(path: broker.appSocket)
        defer { client.close() }
        let steps = (0..<Self.stepSamples).map { Self.quantity(Self.steps, Double($0 + 1), unit: "count", at: $0) }
        try await Self.save(steps, through: client)
        try await Self.save((0..<Self.correlations).map(Self.heavyBloodPressure(at:)), through: client)
        // What a count-only cut would have put in one frame: over the limit several times.
        #expect(SampleList(steps).wireBytes().count > 2 * WireLimits.maxFrameBytes)

        let queried = try await broker.runApp(Self.reader, ["query", Self.steps], timeout: 120)
        #expect(queried.okValue == "\(Self.stepSamples)", "HKSampleQuery: \(queried)")
        #expect(Set(queried.lines.filter { $0.hasPrefix("sample ") }.map { $0.split(separator: " ")[1] }).count == Self.stepSamples)

        let anchored = try await broker.runApp(Self.reader, ["anchored", Self.steps], timeout: 120)
        #expect(anchored.lines.count { $0.hasPrefix("added ") } == Self.stepSamples, "HKAnchoredObjectQuery: \(anchored)")

        for mode in [[], ["--sample-query"]] {
            let correlated = try await broker.runApp(Self.reader, ["query-correlations", Self.bloodPressure] + mode, timeout: 120)
            #expect(correlated.okValue == "\(Self.correlations)", "correlations \(mode): \(correlated)")
            #expect(correlated.lines.count { $0.hasPrefix("object ") } == 2 * Self.correlations)
        }

        let browsed = try await broker.healthctl(["samples", "stepCount", "--json"])
        #expect(browsed.status == 0, "healthctl samples: \(browsed)")
        #expect(browsed.lines.count { $0.hasPrefix("{") } == Self.stepSamples, "healthctl samples: \(browsed.stderr)")
        #expect(broker.isRunning, "healthd died: \(broker.log)")
    }
}
