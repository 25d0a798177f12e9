import Foundation
import HealthModel
import Testing
import TestSupport
@testable import HealthWire

/// `MetadataSize.upperBound` is checked against the encoder it stands in for: for generated
/// metadata of every value kind and extreme lengths, what the metadata adds to an encoded
/// attachment is never more than the bound. And the largest listing the attachment rules allow —
/// 16 attachments with names, content types and metadata at their bounds — fits a frame.
@Suite(.timeLimit(.minutes(10))) struct MetadataSizeTests {
    static func attachment(name: String = "a", contentType: String = "public.data", metadata: [String: MetadataValue]) -> AttachmentRecord {
        AttachmentRecord(identifier: UUID(), objectUUID: UUID(), name: name, contentType: contentType, size: AttachmentLimits.maximumBytes,
                         creationDate: Date(timeIntervalSince1970: 1_700_000_000.123456), metadata: metadata)
    }

    static func encodedMetadataBytes(_ metadata: [String: MetadataValue]) -> Int {
        AttachmentList([attachment(metadata: metadata)]).wireBytes().count - AttachmentList([attachment(metadata: [:])]).wireBytes().count
    }

    @Test func theBoundIsNeverBelowTheEncoding() {
        var random = SplitMix64(seed: 15)
        func text(_ bytes: Int) -> String { String(repeating: "é", count: bytes / 2) + String(repeating: "x", count: bytes % 2) }
        for _ in 0..<300 {
            var metadata: [String: MetadataValue] = [:]
            for index in 0..<Int(random.next() % 65) {
                let keyBytes = [1, 16, 255, 256][Int(random.next() % 4)]
                let key = String(format: "%02d", index % 100) + text(max(0, keyBytes - 2))
                metadata[key] = switch random.next() % 6 {
                case 0: .string(text([0, 1, 127, 128, 16_383, 4_096][Int(random.next() % 6)]))
                case 1: .number([0, -.infinity, .nan, 1e308, -1][Int(random.next() % 5)])
                case 2: .date(Date(timeIntervalSince1970: [-2_208_988_800, 0, 7_258_118_400][Int(random.next() % 3)]))
                case 3: .quantity(value: -1e308, unit: text(Int(random.next() % 300)))
                case 4: .bool(random.next() % 2 == 0)
                default: .string("")
                }
            }
            let encoded = Self.encodedMetadataBytes(metadata)
            #expect(encoded <= MetadataSize.upperBound(of: metadata), "\(metadata.count) entries: \(encoded) encoded")
        }
    }

    @Test func theMostAnObjectMayHoldListsInOneFrame() {
        let key = String(repeating: "k", count: SampleLimits.maximumMetadataKeyBytes - 3)
        var metadata: [String: MetadataValue] = [:]
        var index = 0
        while true {
            var next = metadata
            next[String(format: "%03d", index) + key] = .string(String(repeating: "v", count: SampleLimits.maximumMetadataStringBytes))
            guard MetadataSize.upperBound(of: next) <= AttachmentLimits.maximumMetadataBytes else { break }
            metadata = next
            index += 1
        }
        // Top up to the bound with one shorter string.
        let room = AttachmentLimits.maximumMetadataBytes - MetadataSize.upperBound(of: metadata) - 3 - 32 - key.utf8.count
        if room > 0 { metadata["zzz" + key] = .string(String(repeating: "v", count: room)) }
        #expect(MetadataSize.upperBound(of: metadata) <= AttachmentLimits.maximumMetadataBytes)
        let listing = AttachmentList((0..<AttachmentLimits.maximumPerObject).map { _ in
            Self.attachment(name: String(repeating: "n", count: AttachmentLimits.maximumNameBytes),
                            contentType: String(repeating: "c", count: AttachmentLimits.maximumContentTypeBytes), metadata: metadata)
        }).wireBytes().count
        #expect(listing <= WireLimits.maxFrameBytes - SavedSampleBound.answerOverheadBytes, "\(listing) bytes")
    }
}
