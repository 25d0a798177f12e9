import Foundation
import Testing
import TestSupport

/// Queries over several descriptors whose matches overlap (Tests/EndToEndClient/
/// DescriptorOverlapSnippets.swift). developer.apple.com/documentation/healthkit/hksamplequery/
/// init(querydescriptors:limit:resultshandler:): "Creates a query for samples that match any of
/// the descriptors you provided" — a union: a sample two descriptors match is returned once, the
/// limit counts distinct samples and the sort orders them. The same for HKSampleQueryDescriptor
/// with several predicates and for anchored queries (added samples and deletions alike).
extension AppleSnippetTests {
    /// One process saves a 10-sample timeline and runs every generated descriptor set (4 × 4
    /// step windows, each with no, a windowed or an unfiltered heart-rate descriptor: 48 sets)
    /// through both sample-query spellings with 3 sorts and 2 limits, and anchored queries
    /// before and after a deletion; this test works out each expected answer from the windows.
    @Test func overlappingDescriptorsReturnEachSampleOnce() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.descriptor-overlaps")
        for type in [steps, "HKQuantityTypeIdentifierHeartRate"] { try await broker.set(app, "share", type, allowed: true) }
        let result = try await broker.runApp(app, ["snippet", "descriptor-overlaps"], timeout: 300)
        #expect(result.okValue == "672", "\(result.stdout.suffix(2_000)) \(result.stderr.suffix(2_000))")

        var checked = 0
        for line in result.lines where !line.hasPrefix("ok") {
            let parts = line.components(separatedBy: " => ")
            guard parts.count == 2 else { Issue.record("unparsed line \(line)"); continue }
            let fields = parts[0].split(separator: " ").map(String.init)
            let found = parts[1].split(separator: ",").compactMap { Int($0) }
            switch fields.first {
            case "q":
                guard fields.count == 5, let limit = Int(fields[4]) else { Issue.record("unparsed line \(line)"); continue }
                let union = Self.slots(matching: fields[2])
                #expect(Set(found).count == found.count, "a sample returned twice: \(line)")
                #expect(Set(found).isSubset(of: union), "\(line)")
                #expect(found.count == (limit == 0 ? union.count : min(limit, union.count)), "\(line)")
                switch fields[3] {
                case "asc": #expect(found == Array(union.sorted().prefix(limit == 0 ? union.count : limit)), "\(line)")
                case "desc": #expect(found == Array(union.sorted(by: >).prefix(limit == 0 ? union.count : limit)), "\(line)")
                default: break
                }
            case "a":
                #expect(found.count == Set(found).count && Set(found) == Self.slots(matching: fields[1]), "\(line)")
            case "x":
                // One step sample deleted; every set names the step type, so it is reported once.
                #expect(found == [1], "\(line)")
            default:
                Issue.record("unparsed line \(line)")
            }
            checked += 1
        }
        #expect(checked == 672)
    }

    /// The slots a descriptor set such as `S0-4+S2-8+H*` matches: steps fill the even slots 0…10,
    /// heart rates the odd slots 1…7, and a window a-b matches slots a ..< b.
    static func slots(matching set: String) -> Set<Int> {
        var union: Set<Int> = []
        for descriptor in set.split(separator: "+") {
            let all = descriptor.first == "S" ? Set(stride(from: 0, through: 10, by: 2)) : Set([1, 3, 5, 7])
            let window = descriptor.dropFirst()
            if window == "*" {
                union.formUnion(all)
            } else {
                let bounds = window.split(separator: "-").compactMap { Int($0) }
                guard bounds.count == 2 else { continue }
                union.formUnion(all.filter { $0 >= bounds[0] && $0 < bounds[1] })
            }
        }
        return union
    }
}
