import Foundation
import HealthKit

// `snippet descriptor-overlaps` of the scripted app: queries over several descriptors whose
// matches overlap, written as developer.apple.com/documentation/healthkit/hksamplequery/
// init(querydescriptors:limit:sortdescriptors:resultshandler:), .../hksamplequerydescriptor and
// .../hkanchoredobjectquery/init(querydescriptors:anchor:limit:resultshandler:) show them.
// Checked by AppleSnippetTests+DescriptorOverlaps, which works out the expected answers itself.

/// The timeline: slot k starts at origin + 300 k and lasts 60 s; steps fill the even slots
/// 0…10, heart rates the odd slots 1…7. A window "a-b" is predicateForSamples(withStart: slot a,
/// end: slot b), which matches exactly the slots a ..< b (HealthKit's overlap rule).
private let overlapOrigin = Date(timeIntervalSince1970: 1_700_000_000)

private struct OverlapDescriptor {
    var type: HKSampleType
    var letter: String
    var window: (Int, Int)?

    var name: String { letter + (window.map { "\($0.0)-\($0.1)" } ?? "*") }
    var predicate: NSPredicate? {
        window.map { window in
            HKQuery.predicateForSamples(withStart: overlapOrigin.addingTimeInterval(Double(300 * window.0)),
                                        end: overlapOrigin.addingTimeInterval(Double(300 * window.1)))
        }
    }
    var queryDescriptor: HKQueryDescriptor { HKQueryDescriptor(sampleType: type, predicate: predicate) }
}

private func slot(_ sample: HKSample) -> Int { Int((sample.startDate.timeIntervalSince(overlapOrigin) / 300).rounded()) }
private func slots(_ samples: [HKSample]) -> String { samples.map { String(slot($0)) }.joined(separator: ",") }

/// Saves the timeline, then for every generated descriptor set (two step descriptors from four
/// windows, with no, a windowed or an unfiltered heart-rate descriptor) prints
/// `q API SET SORT LIMIT => SLOTS` for HKSampleQuery (API `c`) and HKSampleQueryDescriptor
/// (`d`) — SORT none|asc|desc by start date, LIMIT 0 (none) or 2 —, `a SET => SLOTS` for an
/// anchored query from no anchor, and after one step sample (slot 2) is deleted
/// `x SET => DELETED-COUNT` for the anchored query continued from that anchor. Then `ok COUNT`.
func descriptorOverlaps(_ healthStore: HKHealthStore) async throws {
    let stepType = HKQuantityType(.stepCount)
    let heartRateType = HKQuantityType(.heartRate)
    var samples: [HKSample] = []
    for k in 0..<12 where k % 2 == 0 || k < 8 {
        let start = overlapOrigin.addingTimeInterval(Double(300 * k))
        let (type, quantity) = k % 2 == 0
            ? (stepType, HKQuantity(unit: .count(), doubleValue: Double(10 + k)))
            : (heartRateType, HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: Double(60 + k)))
        samples.append(HKQuantitySample(type: type, quantity: quantity, start: start, end: start.addingTimeInterval(60)))
    }
    try await healthStore.save(samples)

    let windows: [(Int, Int)?] = [(0, 4), (2, 8), (6, 12), nil]
    var sets: [[OverlapDescriptor]] = []
    for first in windows {
        for second in windows {
            let steps = [OverlapDescriptor(type: stepType, letter: "S", window: first),
                         OverlapDescriptor(type: stepType, letter: "S", window: second)]
            sets.append(steps)
            sets.append(steps + [OverlapDescriptor(type: heartRateType, letter: "H", window: (0, 6))])
            sets.append([OverlapDescriptor(type: heartRateType, letter: "H", window: nil)] + steps)
        }
    }
    let sorts: [(String, [NSSortDescriptor], [SortDescriptor<HKSample>])] = [
        ("none", [], []),
        ("asc", [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)], [SortDescriptor(\.startDate)]),
        ("desc", [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)], [SortDescriptor(\.startDate, order: .reverse)]),
    ]
    var lines = 0
    var anchors: [HKQueryAnchor?] = []
    for set in sets {
        let name = set.map(\.name).joined(separator: "+")
        let queryDescriptors = set.map(\.queryDescriptor)
        for (sortName, nsSorts, sortDescriptors) in sorts {
            for limit in [HKObjectQueryNoLimit, 2] {
                let found: [HKSample] = try await withCheckedThrowingContinuation { continuation in
                    let query = HKSampleQuery(queryDescriptors: queryDescriptors, limit: limit, sortDescriptors: nsSorts) { _, results, error in
                        if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
                    }
                    healthStore.execute(query)
                }
                print("q c \(name) \(sortName) \(limit) => \(slots(found))")
                let descriptor = HKSampleQueryDescriptor(predicates: set.map { .sample(type: $0.type, predicate: $0.predicate) },
                                                         sortDescriptors: sortDescriptors, limit: limit == 0 ? nil : limit)
                print("q d \(name) \(sortName) \(limit) => \(slots(try await descriptor.result(for: healthStore)))")
                lines += 2
            }
        }
        let (added, anchor): ([HKSample], HKQueryAnchor?) = try await withCheckedThrowingContinuation { continuation in
            let query = HKAnchoredObjectQuery(queryDescriptors: queryDescriptors, anchor: nil, limit: HKObjectQueryNoLimit) { _, added, _, anchor, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: (added ?? [], anchor)) }
            }
            healthStore.execute(query)
        }
        print("a \(name) => \(slots(added))")
        anchors.append(anchor)
        lines += 1
    }
    guard let deleted = samples.first(where: { slot($0) == 2 }) else { usage("slot 2 was not saved") }
    try await healthStore.delete(deleted)
    for (set, anchor) in zip(sets, anchors) {
        let deletions: [HKDeletedObject] = try await withCheckedThrowingContinuation { continuation in
            let query = HKAnchoredObjectQuery(queryDescriptors: set.map(\.queryDescriptor), anchor: anchor, limit: HKObjectQueryNoLimit) { _, _, deleted, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: deleted ?? []) }
            }
            healthStore.execute(query)
        }
        print("x \(set.map(\.name).joined(separator: "+")) => \(deletions.count)")
        lines += 1
    }
    print("ok \(lines)")
}
