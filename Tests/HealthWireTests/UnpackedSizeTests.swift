import COpenHealthProto
import Foundation
import HealthModel
import Testing

@testable import HealthWire

/// How much memory protobuf-c's unpacked form of a request takes per byte of its encoding, for
/// the shapes an app controls (`UnpackArena`'s bound, `WireLimits.maxUnpackedBytesPerInputByte`).
@Suite(.timeLimit(.minutes(10))) struct UnpackedSizeTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// `field` (length-delimited) holding `body`, `count` times.
    static func repeated(_ field: UInt8, _ body: [UInt8], count: Int) -> [UInt8] {
        var one: [UInt8] = [field << 3 | 2]
        ProtobufCodec.appendVarint(UInt64(body.count), to: &one)
        one += body
        var bytes: [UInt8] = []
        bytes.reserveCapacity(one.count * count)
        for _ in 0..<count { bytes += one }
        return bytes
    }

    static func save(_ records: [SampleRecord]) -> [UInt8] { SampleList(records).wireBytes() }

    static func record(metadata: [String: MetadataValue] = [:]) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(60),
                     value: .quantity(10, unit: "count"), metadata: metadata)
    }

    /// Shapes of about `bytes` bytes each.
    static func shapes(bytes: Int) -> [(String, [UInt8])] {
        let plain = record()
        let plainSize = save([plain]).count
        let dense = record(metadata: Dictionary(uniqueKeysWithValues: (0..<64).map { (String(format: "k%02d", $0), MetadataValue.bool(true)) }))
        let denseSize = save([dense]).count
        let padded = record(metadata: ["pad": .string(String(repeating: "x", count: 400))])
        let paddedSize = save([padded]).count
        // One sample holding only empty metadata entries (field 7), and a batch of empty samples.
        let emptyEntries = repeated(1, repeated(7, [], count: bytes / 2), count: 1)
        return [
            ("plain steps samples", save(Array(repeating: plain, count: min(10_000, bytes / plainSize)))),
            ("samples with 64 bool metadata entries", save(Array(repeating: dense, count: min(10_000, bytes / denseSize)))),
            ("samples padded with a 400-byte string", save(Array(repeating: padded, count: min(10_000, bytes / paddedSize)))),
            ("one sample of empty metadata entries", emptyEntries),
            ("empty samples", repeated(1, [], count: bytes / 2)),
        ]
    }

    static func unpacked(_ bytes: [UInt8]) -> (used: Int, bound: Int, ok: Bool) {
        let arena = UnpackArena(inputBytes: bytes.count)
        let unpacked = arena.withAllocator { allocator in
            bytes.withUnsafeBufferPointer { protobuf_c_message_unpack(Openhealth__V1__SampleBatch.descriptor, allocator, $0.count, $0.baseAddress) }
        }
        return (arena.usedBytes, arena.bound, unpacked != nil)
    }

    /// Real saves unpack inside the bound; empty nested messages, which unpack to 60–108 times
    /// their size (432 MiB for one 4 MiB frame before session 12), are refused at it — having
    /// taken no more than the bound — with the error that says so.
    @Test func realSavesUnpackAndEmptyMessagesAreRefusedAtTheBound() throws {
        let refused: Set = ["one sample of empty metadata entries", "empty samples"]
        for (name, bytes) in Self.shapes(bytes: 4 << 20) {
            let (used, bound, ok) = Self.unpacked(bytes)
            print("unpacked: \(name): \(bytes.count) bytes -> \(used) bytes (\(Double(used) / Double(bytes.count))x), bound \(bound)")
            #expect(used <= bound, "\(name)")
            #expect(bound == WireLimits.maxUnpackedBytes(forInputBytes: bytes.count))
            #expect(ok == !refused.contains(name), "\(name): unpacked \(ok)")
            do {
                _ = try SampleList(wire: bytes)
                #expect(!refused.contains(name), "\(name): decoded")
            } catch let error as WireDecodeError {
                if refused.contains(name) {
                    guard case .unpacksTooLarge = error else { Issue.record("\(name): \(error)"); continue }
                } else {
                    Issue.record("\(name): \(error)")
                }
            }
        }
    }

    /// A short message always fits, whatever its shape: the allowance.
    @Test func aShortMessageOfEmptyFieldsStillUnpacks() throws {
        let bytes = Self.repeated(1, [], count: 1_000)
        let (used, bound, ok) = Self.unpacked(bytes)
        #expect(ok && used <= bound, "\(used) of \(bound)")
        // Refused for what it says (samples without a value), not for its size.
        #expect(throws: WireDecodeError.invalidField("sample has no value")) { _ = try SampleList(wire: bytes) }
    }
}
