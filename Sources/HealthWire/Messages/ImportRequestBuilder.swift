import COpenHealthProto
public import HealthModel

/// An `ImportSamplesRequest` built one sample at a time, for `healthctl import`: each sample is
/// packed into the request's bytes as it is added, so a batch being filled holds its wire bytes
/// (about 250 bytes for a step count with a device and metadata) rather than `SampleRecord`s with
/// their dictionaries and strings (several times that), and `wireBytes()` is a copy, not an
/// encoding. healthd decodes it as any `ImportBatch` (`ImportBatch(wire:)`): the samples field
/// follows the others instead of preceding the routes, which protobuf reads the same.
public struct ImportRequestBuilder: Sendable {
    public let origin: String
    public let sourceName: String
    public let sourceVersion: String?
    /// How many samples were added.
    public private(set) var sampleCount = 0
    /// Routes of the workouts added, by sample index.
    public private(set) var routes: [ImportedRoute] = []
    /// Indexes of the samples added whose sync identity is dated (`ImportBatch.datedIdentities`).
    public private(set) var datedIdentities: [Int] = []
    /// Field 4 (`samples`) entries, packed.
    private var samples: [UInt8] = []

    public init(origin: String, sourceName: String, sourceVersion: String?) {
        self.origin = origin
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
    }

    /// The samples' bytes so far: the request is this plus its few header and route bytes.
    public var sampleBytes: Int { samples.count }

    /// Packs `record` as one entry of the samples field, replacing what `buffer` held (its
    /// capacity is kept, so one scratch buffer serves a whole import).
    public static func pack(_ record: SampleRecord, into buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: true)
        // An arena per sample: what it holds is freed as soon as the sample is packed.
        let arena = WireArena()
        var builder = SampleWireBuilder(in: arena)
        ProtobufCodec.appendField(4, builder.build(record), to: &buffer)
    }

    /// Adds a sample `pack` packed; `routes` are its own (a workout's); `datedIdentity`: its sync
    /// identifier was derived from its type and start among the rest (`ImportedSample.datedIdentity`).
    public mutating func append(packed: [UInt8], routes: [[RouteLocation]] = [], datedIdentity: Bool = false) {
        samples.append(contentsOf: packed)
        self.routes += routes.map { ImportedRoute(workoutIndex: sampleCount, locations: $0) }
        if datedIdentity { datedIdentities.append(sampleCount) }
        sampleCount += 1
    }

    /// The request: origin, source, routes and dated identities packed by protobuf-c, then the
    /// samples (protobuf reads fields in any order).
    public func wireBytes() -> [UInt8] {
        var header = ImportBatch(origin: origin, sourceName: sourceName, sourceVersion: sourceVersion, samples: [], routes: routes,
                                 datedIdentities: datedIdentities)
            .wireBytes()
        header.append(contentsOf: samples)
        return header
    }
}
