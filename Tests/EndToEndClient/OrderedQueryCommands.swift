import Foundation
import HealthKit

/// `query-ordered TYPE [--start S] [--end E] [--strict-start] [--strict-end] [--limit N]
/// [--sort start|end:asc|desc]…`: an HKSampleQuery with a date predicate and any number of
/// sort descriptors, in the order given (none: no sort descriptors at all). Prints the UUIDs of
/// the results in the order received, one `uuid UUID` line each, then `ok COUNT`.
func orderedQueryCommand(_ arguments: [String], store: HKHealthStore) async throws {
    guard arguments.count >= 2, let sampleType = type(arguments[1]) as? HKSampleType else {
        print("usage: query-ordered TYPE [--start S] [--end E] [--strict-start] [--strict-end] [--limit N] [--sort KEY:asc|desc]…")
        exit(2)
    }
    var options: HKQueryOptions = []
    if arguments.contains("--strict-start") { options.insert(.strictStartDate) }
    if arguments.contains("--strict-end") { options.insert(.strictEndDate) }
    let start = seconds("--start", in: arguments), end = seconds("--end", in: arguments)
    let predicate = start == nil && end == nil ? nil : HKQuery.predicateForSamples(withStart: start, end: end, options: options)
    let sort = values(of: "--sort", in: arguments).map { field -> NSSortDescriptor in
        let parts = field.split(separator: ":")
        guard parts.count == 2, ["start", "end"].contains(parts[0]), ["asc", "desc"].contains(parts[1]) else {
            print("usage: --sort takes start|end:asc|desc; got \(field)")
            exit(2)
        }
        return NSSortDescriptor(key: parts[0] == "start" ? HKSampleSortIdentifierStartDate : HKSampleSortIdentifierEndDate,
                                ascending: parts[1] == "asc")
    }
    let limit = values(of: "--limit", in: arguments).first.flatMap(Int.init) ?? HKObjectQueryNoLimit
    let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        store.execute(HKSampleQuery(sampleType: sampleType, predicate: predicate, limit: limit,
                                    sortDescriptors: sort.isEmpty ? nil : sort) { _, samples, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
        })
    }
    for sample in samples { print("uuid \(sample.uuid.uuidString)") }
    print("ok \(samples.count)")
}
