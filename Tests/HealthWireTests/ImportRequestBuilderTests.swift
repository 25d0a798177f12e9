import Foundation
import HealthModel
import Testing

@testable import HealthWire

/// `healthctl import` packs each sample into its batch's request as it reads it
/// (`ImportRequestBuilder`); healthd must read that request exactly as one `ImportBatch` packs
/// whole: same origin, source, samples in order and routes by workout index.
@Suite(.timeLimit(.minutes(10))) struct ImportRequestBuilderTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func workout(_ index: Int) -> SampleRecord {
        let start = Self.start.addingTimeInterval(Double(index) * 3_600)
        return SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: start.addingTimeInterval(1_800),
                            value: .workout(WorkoutValue(activityType: 37, duration: 1_800, totalDistance: RecordedQuantity(5_000, unit: "m"))),
                            metadata: [HKMetadataKeySyncIdentifier: .string("w\(index)"), HKMetadataKeySyncVersion: .number(1)],
                            device: DeviceRecord(name: "Watch", manufacturer: "Apple Inc."))
    }

    static func route(_ index: Int, points: Int) -> [RouteLocation] {
        (0..<points).map { point in
            RouteLocation(timestamp: start.addingTimeInterval(Double(index) * 3_600 + Double(point)), latitude: 52 + Double(point) / 1e4,
                          longitude: 13, altitude: 34, horizontalAccuracy: 5, verticalAccuracy: 3, course: 90, speed: 2.5)
        }
    }

    func built(_ samples: [SampleRecord], routes: [Int: [[RouteLocation]]], version: String?) -> ImportRequestBuilder {
        var builder = ImportRequestBuilder(origin: "Apple Health", sourceName: "Ünïcode Watch", sourceVersion: version)
        var scratch: [UInt8] = []
        for (index, sample) in samples.enumerated() {
            ImportRequestBuilder.pack(sample, into: &scratch)
            builder.append(packed: scratch, routes: routes[index] ?? [])
        }
        return builder
    }

    @Test(arguments: [nil, "10.4"])
    func workoutsWithRoutesReadAsTheWholeBatch(version: String?) throws {
        let samples = (0..<5).map(Self.workout)
        let routes = [1: [Self.route(1, points: 3)], 3: [Self.route(3, points: 2), Self.route(3, points: 4)]]
        let builder = built(samples, routes: routes, version: version)
        let whole = ImportBatch(origin: "Apple Health", sourceName: "Ünïcode Watch", sourceVersion: version, samples: samples,
                                routes: routes.sorted { $0.key < $1.key }.flatMap { index, list in
                                    list.map { ImportedRoute(workoutIndex: index, locations: $0) }
                                })
        #expect(builder.sampleCount == 5)
        #expect(try ImportBatch(wire: builder.wireBytes()) == (try ImportBatch(wire: whole.wireBytes())))
        #expect(builder.wireBytes().count == whole.wireBytes().count, "the same fields, in another order")
    }

    /// Quantities and categories from the wire builder's own varied batch, one type per import
    /// batch in practice but any mix decodes.
    @Test func variedSamplesReadBackInOrder() throws {
        var samples = SampleWireBuilderTests.samples.prefix(300).map { sample in
            var copy = sample
            copy.source = nil  // an import's source is the batch's
            return copy
        }
        samples.append(Self.workout(9))
        let decoded = try ImportBatch(wire: built(samples, routes: [:], version: nil).wireBytes())
        #expect(decoded.samples == samples)
        #expect(decoded.routes.isEmpty && decoded.sourceVersion == nil)
        #expect(decoded.datedIdentities.isEmpty)
    }

    /// The samples whose identity healthctl marked dated travel as their indexes
    /// (`dated_identities`, issue 16) and come back as the same indexes and mask, beside the
    /// samples and routes; none marked, every one, and every other one.
    @Test(arguments: [[], [0, 1, 2, 3, 4], [1, 3]])
    func datedIdentitiesReadBackByIndex(marked: [Int]) throws {
        let samples = (0..<5).map(Self.workout)
        var builder = ImportRequestBuilder(origin: "Apple Health", sourceName: "Watch", sourceVersion: nil)
        var scratch: [UInt8] = []
        for (index, sample) in samples.enumerated() {
            ImportRequestBuilder.pack(sample, into: &scratch)
            builder.append(packed: scratch, routes: index == 1 ? [Self.route(1, points: 2)] : [], datedIdentity: marked.contains(index))
        }
        let decoded = try ImportBatch(wire: builder.wireBytes())
        #expect(decoded.samples == samples)
        #expect(decoded.routes.count == 1)
        #expect(decoded.datedIdentities == marked)
        #expect(decoded.datedMask == samples.indices.map { marked.contains($0) })
    }

    /// healthd refuses marks that name no sample of the message, or one twice, or out of order:
    /// so the list is bounded by the samples and a mark cannot move to another sample.
    @Test(arguments: [[3], [4_294_967_295], [1, 1], [2, 1], [0, 2, 1]])
    func marksThatNameNoSampleOnceAreRefused(marked: [Int]) throws {
        let batch = ImportBatch(origin: "Apple Health", sourceName: "Watch", sourceVersion: nil, samples: (0..<3).map(Self.workout),
                                datedIdentities: marked)
        #expect(throws: WireDecodeError.self) { try ImportBatch(wire: batch.wireBytes()) }
    }
}
