import Foundation
import HealthModel
import Testing
import TestSupport
@testable import HealthWire

/// `FrameBatcher`, the one cut of a listing by count and encoded bytes: generated lists of sizes
/// (zero, tiny, at the bound, past it), each cut checked against the rule it states.
@Suite(.timeLimit(.minutes(10))) struct FrameBatcherTests {
    /// Every item kept once and in order; no batch past its count; no batch of several items past
    /// its bytes; and every batch but the last closed only because the next item would not fit.
    static func checkCut(_ sizes: [Int], maxCount: Int, maxBytes: Int) {
        let batches = FrameBatcher.batches(Array(sizes.indices), maxCount: maxCount, maxBytes: maxBytes) { sizes[$0] }
        #expect(batches.flatMap { $0 } == Array(sizes.indices), "every item once, in order")
        #expect(!batches.contains { $0.isEmpty })
        for (number, batch) in batches.enumerated() {
            let bytes = batch.reduce(0) { $0 + sizes[$1] }
            #expect(batch.count <= maxCount)
            #expect(batch.count == 1 || bytes <= maxBytes, "several items past the bytes: \(batch.map { sizes[$0] })")
            if number < batches.count - 1, let next = batches[number + 1].first {
                #expect(batch.count == maxCount || bytes + sizes[next] > maxBytes, "closed early: \(batch.map { sizes[$0] })")
            }
        }
    }

    @Test(arguments: [(1, 1), (1, 1 << 20), (3, 100), (500, 1 << 20), (.max, 4_096), (.max, 1)])
    func generatedListsAreCutByCountAndBytes(maxCount: Int, maxBytes: Int) {
        var random = SplitMix64(seed: UInt64(truncatingIfNeeded: maxCount &* 31 &+ maxBytes))
        for _ in 0..<200 {
            let count = Int(random.next() % 60)
            let sizes = (0..<count).map { _ -> Int in
                switch random.next() % 5 {
                case 0: 0
                case 1: maxBytes
                case 2: maxBytes + 1 + Int(random.next() % 1_000)
                default: Int(random.next() % UInt64(max(1, maxBytes / 3) + 1))
                }
            }
            Self.checkCut(sizes, maxCount: maxCount, maxBytes: maxBytes)
        }
    }

    @Test func anItemPastTheBoundTravelsAloneAndNothingGivesNoBatch() {
        #expect(FrameBatcher.batches([Int](), size: { $0 }).isEmpty)
        #expect(FrameBatcher.batches([10, 5_000, 10], maxBytes: 100, size: { $0 }) == [[10], [5_000], [10]])
        #expect(FrameBatcher.batches([60, 40, 1], maxBytes: 100, size: { $0 }) == [[60, 40], [1]])
    }
}
