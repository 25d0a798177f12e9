// The change-feed commands of the scripted test app: anchored, observer and source queries.
// Each line is flushed as it is printed, so a test reading a long-running command's output
// sees every delivery when it happens.
import Foundation
import HealthKit

/// Prints one line and flushes it (stdout to a pipe is block-buffered).
func emit(_ line: String) {
    print(line)
    fflush(nil)  // all streams: naming `stdout` is not concurrency-safe in Swift 6
}

/// `anchored TYPE[,TYPE…] [--anchor-file F [--archived]] [--limit N] [--updates N]`: the changes since the anchor in
/// F (from the beginning if F is missing), saving the new anchor to F. With `--updates N` the
/// query is long-running and the command exits after N updates. Several types (comma-separated)
/// run one query over a descriptor per type (`init(queryDescriptors:anchor:limit:resultsHandler:)`).
///
/// Output per delivery: `added UUID VALUE SOURCE` and `deleted UUID SYNC-ID SYNC-VERSION`
/// lines, then `delivery initial|update ADDED DELETED`; finally `ok DELIVERIES`.
func anchoredCommand(_ arguments: [String], store: HKHealthStore) async throws {
    let sampleTypes = arguments.count >= 2 ? arguments[1].split(separator: ",").map { type(String($0)) as? HKSampleType } : []
    guard let sampleType = sampleTypes.first ?? nil, !sampleTypes.contains(where: { $0 == nil }) else {
        print("usage: anchored TYPE[,TYPE…] [--anchor-file F] [--limit N] [--updates N]")
        exit(2)
    }
    let anchorFile = values(of: "--anchor-file", in: arguments).first
    // With --archived, persisted as HealthKit apps persist anchors (NSKeyedArchiver, secure
    // coding); otherwise as the raw `data`, which tests alter byte by byte.
    let archived = arguments.contains("--archived")
    let anchor = try anchorFile.flatMap { FileManager.default.contents(atPath: $0) }.flatMap { contents in
        archived ? try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: contents)
                 : HKQueryAnchor(data: contents)
    }
    let limit = values(of: "--limit", in: arguments).first.flatMap(Int.init) ?? HKObjectQueryNoLimit
    let updates = values(of: "--updates", in: arguments).first.flatMap(Int.init)
    let deliveries = AsyncThrowingStream<(String, [HKSample], [HKDeletedObject], HKQueryAnchor), any Error>.makeStream()
    let handler: HKAnchoredObjectQuery.ResultsHandler = { _, added, deleted, anchor, error in
        if let error { deliveries.continuation.finish(throwing: error); return }
        deliveries.continuation.yield(("initial", added ?? [], deleted ?? [], anchor!))
        if updates == nil { deliveries.continuation.finish() }
    }
    let query = sampleTypes.count == 1
        ? HKAnchoredObjectQuery(type: sampleType, predicate: nil, anchor: anchor, limit: limit, resultsHandler: handler)
        : HKAnchoredObjectQuery(queryDescriptors: sampleTypes.compactMap { $0 }.map { HKQueryDescriptor(sampleType: $0, predicate: nil) },
                                anchor: anchor, limit: limit, resultsHandler: handler)
    if updates != nil {
        query.updateHandler = { _, added, deleted, anchor, error in
            if let error { deliveries.continuation.finish(throwing: error); return }
            deliveries.continuation.yield(("update", added ?? [], deleted ?? [], anchor!))
        }
    }
    store.execute(query)
    var count = 0
    for try await (kind, added, deleted, newAnchor) in deliveries.stream {
        for sample in added { emit("added \(sample.uuid.uuidString) \(value(of: sample)) \(sample.sourceRevision.source.bundleIdentifier)") }
        for object in deleted {
            let sync = object.metadata?[HKMetadataKeySyncIdentifier] as? String ?? "-"
            let version = (object.metadata?[HKMetadataKeySyncVersion] as? NSNumber)?.stringValue ?? "-"
            emit("deleted \(object.uuid.uuidString) \(sync) \(version)")
        }
        if let anchorFile {
            let contents = archived ? try NSKeyedArchiver.archivedData(withRootObject: newAnchor, requiringSecureCoding: true)
                                    : newAnchor.data
            try contents.write(to: URL(fileURLWithPath: anchorFile))
        }
        emit("delivery \(kind) \(added.count) \(deleted.count)")
        count += 1
        if let updates, count > updates { break }
    }
    store.stop(query)
    emit("ok \(count)")
}

/// `observe TYPE --count N [--unacknowledged-last | --withhold-completion]`: calls each observer
/// update's completion handler and prints `update K` (the first comes at start); exits after N
/// with `ok N`. With `--unacknowledged-last` the Nth is printed `update N unacknowledged` and the
/// app exits at once, its completion handler never called. With `--withhold-completion` no
/// completion handler is ever called, and each update prints `update K withheld`.
func observeCommand(_ arguments: [String], store: HKHealthStore) async throws {
    guard arguments.count >= 2, let sampleType = type(arguments[1]) as? HKSampleType,
          let wanted = values(of: "--count", in: arguments).first.flatMap(Int.init) else {
        print("usage: observe TYPE --count N [--unacknowledged-last | --withhold-completion]")
        exit(2)
    }
    // --unacknowledged-last: the Nth update's completion handler is never called; the app
    // exits right after printing it (an app that dies before acknowledging).
    let dropLast = arguments.contains("--unacknowledged-last")
    let withhold = arguments.contains("--withhold-completion")
    let updates = AsyncThrowingStream<@Sendable () -> Void, any Error>.makeStream()
    let query = HKObserverQuery(sampleType: sampleType, predicate: nil) { _, completion, error in
        if let error { updates.continuation.finish(throwing: error); return }
        updates.continuation.yield(completion)
    }
    store.execute(query)
    var count = 0
    for try await completion in updates.stream {
        count += 1
        if count == wanted && dropLast {
            emit("update \(count) unacknowledged")
            exit(0)
        }
        if withhold {
            emit("update \(count) withheld")
        } else {
            completion()
            emit("update \(count)")
        }
        if count == wanted { break }
    }
    store.stop(query)
    emit("ok \(count)")
}

/// `sources TYPE`: `source BUNDLE-ID` per source with samples of TYPE the app may read, then `ok N`.
func sourcesCommand(_ arguments: [String], store: HKHealthStore) async throws {
    guard arguments.count >= 2, let sampleType = type(arguments[1]) as? HKSampleType else {
        print("usage: sources TYPE")
        exit(2)
    }
    let sources: Set<HKSource> = try await withCheckedThrowingContinuation { continuation in
        store.execute(HKSourceQuery(sampleType: sampleType, samplePredicate: nil) { _, sources, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: sources ?? []) }
        })
    }
    for bundle in sources.map(\.bundleIdentifier).sorted() { print("source \(bundle)") }
    print("ok \(sources.count)")
}

/// A sample's value as the tests compare it: the quantity in its type's canonical unit, the
/// category value, or a correlation's samples' values joined by "/" in type-identifier order
/// (blood pressure prints DIASTOLIC/SYSTOLIC).
func value(of sample: HKSample) -> String {
    switch sample {
    case let correlation as HKCorrelation:
        correlation.objects.sorted { $0.sampleType.identifier < $1.sampleType.identifier }.map { value(of: $0) }.joined(separator: "/")
    case let sample as HKQuantitySample: "\(sample.quantity.doubleValue(for: sample.quantityType.canonicalUnit))"
    case let sample as HKCategorySample: "\(sample.value)"
    default: "-"
    }
}
