import Foundation
import HealthModel
import Testing
@testable import HealthWire

/// The per-object prompt listing in frames: whatever the requests and their candidates weigh,
/// each frame stays near `resultBatchBytes` (far inside a frame) and the manager, joining the
/// pieces, gets back every request with every candidate in order.
@Suite(.timeLimit(.minutes(10))) struct PerObjectPromptFramesTests {
    static func candidate(_ number: Int, brand: Int) -> SampleRecord {
        let issued = Date(timeIntervalSince1970: 1_700_000_000 + Double(number))
        return SampleRecord(uuid: UUID(), typeIdentifier: HKVisionPrescriptionTypeIdentifier, startDate: issued, endDate: issued,
                            value: .visionPrescription(VisionPrescriptionValue(kind: VisionPrescriptionValue.contacts, hasLenses: true,
                                                                               expirationDate: nil, brand: String(repeating: "b", count: brand))),
                            source: SourceRecord(bundleIdentifier: "org.test.owner", name: String(repeating: "n", count: 1_024)))
    }

    static func prompt(_ id: UInt64, candidates: Int, brand: Int) -> PerObjectPrompt {
        PerObjectPrompt(requestID: id, appID: "org.test.reader\(id)", appDisplayName: String(repeating: "d", count: 1_024),
                        readUsageDescription: String(repeating: "u", count: 1_024), typeIdentifier: HKVisionPrescriptionTypeIdentifier,
                        candidates: (0..<candidates).map { candidate($0, brand: brand) })
    }

    /// Request sets from none to several full ones (1,000 candidates with 1 KiB brands and
    /// source names each: ~2.5 MB a request), at the default bound and at tiny ones that split
    /// every request.
    @Test(arguments: [0, 1, 2, 3], [WireLimits.resultBatchBytes, 8_192, 1])
    func framesCarryEveryCandidateAndStayNearTheBound(requests: Int, maxBytes: Int) throws {
        let prompts = (0..<requests).map { Self.prompt(UInt64($0 + 1), candidates: [0, 1, 1_000, 37][$0 % 4], brand: 1_024) }
        let frames = PerObjectPromptList.frames(prompts, maxBytes: maxBytes)
        var pieces: [PerObjectPrompt] = []
        for frame in frames {
            let bytes = frame.wireBytes()
            #expect(bytes.count <= WireLimits.maxFrameBytes / 2)
            // The bound, plus at most one candidate and the heading a continued request repeats.
            #expect(bytes.count <= maxBytes + 8_192, "frame of \(bytes.count) bytes")
            pieces += try PerObjectPromptList(wire: bytes).prompts
        }
        #expect(PerObjectPromptList.merged(pieces) == prompts)
        #expect(frames.isEmpty == prompts.isEmpty)
    }
}
