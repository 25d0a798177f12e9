import HealthModel

/// Hard limits of the wire, checked before anything is allocated for a peer's bytes.
///
/// They are part of the protocol (proto/README.md documents them): a client that needs more
/// must split its work, e.g. save in batches.
public enum WireLimits {
    /// Largest serialized `Frame` accepted, in bytes (the 4-byte length prefix not included).
    public static let maxFrameBytes = 4 * 1024 * 1024
    /// Calls one connection may have open at once; the next REQUEST is refused with RESOURCE_EXHAUSTED.
    public static let maxCallsInFlight = 32
    /// Deepest nesting of messages inside one payload (predicate trees are recursive). Deeper
    /// payloads are refused before protobuf-c's recursive decoder sees them.
    public static let maxMessageDepth = 32
    /// Longest method name accepted in a REQUEST frame.
    public static let maxMethodNameBytes = 128
    /// Memory protobuf-c may take to unpack one message, per byte of its encoding, beyond
    /// `unpackedBytesAllowance` (`UnpackArena`). Every nested message unpacks into a struct of its
    /// full size however few bytes encode it: an empty `Sample` is 2 bytes on the wire and 216
    /// unpacked, so a 4 MiB frame of them took 432 MiB (108×), and one sample of empty metadata
    /// entries 240 MiB (60×). Real messages stay far below (`UnpackedSizeTests`: plain samples
    /// 3.7×, padded 1.8×, 64 one-byte metadata entries a sample 13.9×); more is refused as
    /// `WireDecodeError.unpacksTooLarge` before it is taken.
    public static let maxUnpackedBytesPerInputByte = 16
    /// What any message may take unpacked whatever its size, so a short one never meets the bound.
    public static let unpackedBytesAllowance = 1 << 20
    /// The bound for a message of `inputBytes` bytes.
    public static func maxUnpackedBytes(forInputBytes inputBytes: Int) -> Int {
        let (scaled, overflow) = inputBytes.multipliedReportingOverflow(by: maxUnpackedBytesPerInputByte)
        return overflow ? .max : scaled.addingReportingOverflow(unpackedBytesAllowance).partialValue
    }
    /// Samples one save may carry.
    public static let maxSamplesPerSave = 10_000
    /// Samples per streamed SampleBatch message sent by the broker.
    public static let samplesPerBatch = 500
    /// The encoded size a result batch is cut at, beside its count: a batch ends before the row
    /// that would take it past this (a row larger than this alone goes in a batch of its own).
    /// Counts alone did not bound a frame: one sample may carry ~280 KB of metadata (64 entries
    /// of 256-byte keys and 4096-byte values, `SampleLimits`) and a device of 8 KiB, and a
    /// workout's events and activities are bounded only by the save frame, so 500 rows an app
    /// wrote could build an answer over `maxFrameBytes` that its reader — another app, the
    /// manager — refused, ending its connection. A quarter of the frame: well under it with a
    /// frame's own fields, and plain rows (about 100 bytes) still batch by count. Store answers
    /// are cut at it where they are read (`AnswerBatching`), listings by `FrameBatcher`.
    public static let resultBatchBytes = 1 << 20
    /// Clinical records per streamed batch: each may carry a FHIR resource of up to
    /// `FHIRResourceRules.maxResourceBytes` plus bounded metadata and device (`SampleLimits`,
    /// about 290 KB), so 500 would not fit a frame; 6 whole records always do (6 × (256 KiB +
    /// 290 KB) ≈ 3.3 MB < 4 MiB), and the byte cut (`resultBatchBytes`) makes most batches smaller.
    public static let clinicalRecordsPerBatch = 6

    /// Samples per batch for an answer holding samples of `types`: the smallest of the types'
    /// own batch sizes. The one place that sizes result batches by count (bytes: `resultBatchBytes`), so every query path (sample, anchored, the manager's)
    /// keeps within a frame, whatever value kinds are added.
    public static func samplesPerBatch(types: some Sequence<String>) -> Int {
        types.reduce(samplesPerBatch) { smallest, identifier in
            min(smallest, samplesPerBatch(of: HKObjectType.type(forIdentifier: identifier)))
        }
    }

    /// How many samples of one type fit a frame with room to spare.
    private static func samplesPerBatch(of type: HKObjectType?) -> Int {
        switch type {
        case is HKDocumentType: documentsPerBatch
        case is HKClinicalType: clinicalRecordsPerBatch
        default: samplesPerBatch
        }
    }
}
