// A scripted HealthKit app for the end-to-end tests: each run performs one action through the
// SDK and prints its result in a line-oriented form the tests parse. It is a real, separate
// process, usually started under health-sandbox.
//
//   e2e-client request [--share TYPE]… [--read TYPE]…
//   e2e-client request-status [--share TYPE]… [--read TYPE]…
//   e2e-client status TYPE
//   e2e-client save TYPE VALUE UNIT START END        (START/END: seconds since 1970)
//   e2e-client query TYPE [--start S] [--end E] [--strict-start] [--strict-end] [--limit N] [--sort start|end] [--descending] [--unit U]
//
// Output: `ok …` lines, `sample …` lines, or `error CODE message` with exit status 3.
import Foundation
import HealthKit

func fail(_ error: any Error) -> Never {
    if let error = error as? HKError {
        print("error \(error.code.rawValue) \(error.message)")
    } else {
        print("error -1 \(error)")
    }
    exit(3)
}

func type(_ identifier: String) -> HKObjectType {
    guard let type = HKObjectType.type(forIdentifier: identifier) else {
        print("usage: unknown type \(identifier)")
        exit(2)
    }
    return type
}

func values(of flag: String, in arguments: [String]) -> [String] {
    arguments.indices.filter { arguments[$0] == flag && $0 + 1 < arguments.count }.map { arguments[$0 + 1] }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let store = HKHealthStore()
guard let command = arguments.first else {
    print("usage: e2e-client request|request-status|status|save|query …")
    exit(2)
}

do {
    switch command {
    case "request":
        let share = Set(values(of: "--share", in: arguments).compactMap { type($0) as? HKSampleType })
        let read = Set(values(of: "--read", in: arguments).map(type))
        try await store.requestAuthorization(toShare: share, read: read)
        print("ok requested")
    case "request-status":
        let share = Set(values(of: "--share", in: arguments).compactMap { type($0) as? HKSampleType })
        let read = Set(values(of: "--read", in: arguments).map(type))
        let status = try await store.getRequestStatusForAuthorization(toShare: share, read: read)
        print("ok \(status.rawValue)")
    case "status":
        print("ok \(store.authorizationStatus(for: type(arguments[1])).rawValue)")
    case "save":
        guard arguments.count >= 6, let quantityType = type(arguments[1]) as? HKQuantityType,
              let value = Double(arguments[2]), let start = Double(arguments[4]), let end = Double(arguments[5]) else {
            print("usage: save TYPE VALUE UNIT START END")
            exit(2)
        }
        let sample = HKQuantitySample(type: quantityType, quantity: HKQuantity(unit: HKUnit(from: arguments[3]), doubleValue: value),
                                      start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end))
        try await store.save(sample)
        print("ok \(sample.uuid.uuidString)")
    case "query":
        guard let sampleType = type(arguments[1]) as? HKSampleType else { exit(2) }
        var options: HKQueryOptions = []
        if arguments.contains("--strict-start") { options.insert(.strictStartDate) }
        if arguments.contains("--strict-end") { options.insert(.strictEndDate) }
        let start = values(of: "--start", in: arguments).first.flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }
        let end = values(of: "--end", in: arguments).first.flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }
        let predicate = (start == nil && end == nil) ? nil : HKQuery.predicateForSamples(withStart: start, end: end, options: options)
        let limit = values(of: "--limit", in: arguments).first.flatMap(Int.init) ?? HKObjectQueryNoLimit
        let key = values(of: "--sort", in: arguments).first == "end" ? HKSampleSortIdentifierEndDate : HKSampleSortIdentifierStartDate
        let sort = [NSSortDescriptor(key: key, ascending: !arguments.contains("--descending"))]
        let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
            let query = HKSampleQuery(sampleType: sampleType, predicate: predicate, limit: limit, sortDescriptors: sort) { _, samples, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
            }
            store.execute(query)
        }
        for case let sample as HKQuantitySample in samples {
            let unit = values(of: "--unit", in: arguments).first.map { HKUnit(from: $0) } ?? sample.quantityType.canonicalUnit
            print("sample \(sample.uuid.uuidString) \(Int(sample.startDate.timeIntervalSince1970)) \(Int(sample.endDate.timeIntervalSince1970)) \(sample.quantity.doubleValue(for: unit)) \(sample.sourceRevision.source.bundleIdentifier)")
        }
        print("ok \(samples.count)")
    default:
        print("usage: unknown command \(command)")
        exit(2)
    }
} catch {
    fail(error)
}
