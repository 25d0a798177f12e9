import Foundation
import HealthKit

// `statistics` and `collection` commands of the scripted app. Each interval prints as
//   stat START END [sum=V] [avg=V] [min=V] [max=V] [recent=V@START-END] [duration=SECONDS]
// (times in seconds since 1970; values in --unit, else the canonical unit), followed with
// --by-source by `source BUNDLE …` lines with the same keys for each source in priority order.

/// `--options sum,avg,min,max,recent,duration` as HKStatisticsOptions (plus `--by-source`).
func statisticsOptions(in arguments: [String]) -> HKStatisticsOptions {
    var options: HKStatisticsOptions = arguments.contains("--by-source") ? .separateBySource : []
    for name in (values(of: "--options", in: arguments).first ?? "").split(separator: ",") {
        switch name {
        case "sum": options.insert(.cumulativeSum)
        case "avg": options.insert(.discreteAverage)
        case "min": options.insert(.discreteMin)
        case "max": options.insert(.discreteMax)
        case "recent": options.insert(.mostRecent)
        case "duration": options.insert(.duration)
        default:
            print("usage: --options takes sum,avg,min,max,recent,duration; got \(name)")
            exit(2)
        }
    }
    return options
}

func seconds(_ flag: String, in arguments: [String]) -> Date? {
    values(of: flag, in: arguments).first.flatMap(Double.init).map { Date(timeIntervalSince1970: $0) }
}

func quantityType(_ identifier: String) -> HKQuantityType {
    guard let quantityType = type(identifier) as? HKQuantityType else {
        print("usage: \(identifier) is not a quantity type")
        exit(2)
    }
    return quantityType
}

/// One interval's `stat` line and, when the query separated them, its `source` lines.
func printStatistics(_ statistics: HKStatistics, unit: HKUnit?) {
    let unit = unit ?? statistics.quantityType.canonicalUnit
    func fields(_ sum: HKQuantity?, _ average: HKQuantity?, _ minimum: HKQuantity?, _ maximum: HKQuantity?,
                _ recent: HKQuantity?, _ recentInterval: DateInterval?, _ duration: HKQuantity?) -> String {
        var parts: [String] = []
        if let sum { parts.append("sum=\(sum.doubleValue(for: unit))") }
        if let average { parts.append("avg=\(average.doubleValue(for: unit))") }
        if let minimum { parts.append("min=\(minimum.doubleValue(for: unit))") }
        if let maximum { parts.append("max=\(maximum.doubleValue(for: unit))") }
        if let recent, let recentInterval {
            parts.append("recent=\(recent.doubleValue(for: unit))@\(Int(recentInterval.start.timeIntervalSince1970))-\(Int(recentInterval.end.timeIntervalSince1970))")
        }
        if let duration { parts.append("duration=\(duration.doubleValue(for: .second()))") }
        return parts.map { " " + $0 }.joined()
    }
    let s = statistics
    print("stat \(Int(s.startDate.timeIntervalSince1970)) \(Int(s.endDate.timeIntervalSince1970))"
          + fields(s.sumQuantity(), s.averageQuantity(), s.minimumQuantity(), s.maximumQuantity(), s.mostRecentQuantity(),
                   s.mostRecentQuantityDateInterval(), s.duration()))
    for source in s.sources ?? [] {
        print("source \(source.bundleIdentifier)"
              + fields(s.sumQuantity(for: source), s.averageQuantity(for: source), s.minimumQuantity(for: source),
                       s.maximumQuantity(for: source), s.mostRecentQuantity(for: source),
                       s.mostRecentQuantityDateInterval(for: source), s.duration(for: source)))
    }
}

/// `statistics TYPE --options … [--start S] [--end E] [--by-source] [--unit U]`.
func runStatistics(_ arguments: [String], store: HKHealthStore) async throws {
    let type = quantityType(arguments[1])
    let start = seconds("--start", in: arguments), end = seconds("--end", in: arguments)
    let predicate = start == nil && end == nil ? nil : HKQuery.predicateForSamples(withStart: start, end: end)
    let statistics: HKStatistics? = try await withCheckedThrowingContinuation { continuation in
        let query = HKStatisticsQuery(quantityType: type, quantitySamplePredicate: predicate,
                                      options: statisticsOptions(in: arguments)) { _, statistics, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: statistics) }
        }
        store.execute(query)
    }
    if let statistics { printStatistics(statistics, unit: values(of: "--unit", in: arguments).first.map { HKUnit(from: $0) }) }
    print("ok \(statistics == nil ? 0 : 1)")
}

/// The collection query's arguments: `TYPE --anchor S --interval minute|hour|day|week|month
/// [--count N] --zone ZONE --options … [--start S] [--end E] [--by-source]`.
func collectionQuery(_ arguments: [String]) -> HKStatisticsCollectionQuery {
    let type = quantityType(arguments[1])
    guard let anchor = seconds("--anchor", in: arguments), let zoneName = values(of: "--zone", in: arguments).first,
          let zone = TimeZone(identifier: zoneName) else {
        print("usage: collection TYPE --anchor S --interval UNIT --zone ZONE --options …")
        exit(2)
    }
    let count = values(of: "--count", in: arguments).first.flatMap(Int.init) ?? 1
    var components = DateComponents()
    switch values(of: "--interval", in: arguments).first {
    case "minute": components.minute = count
    case "hour": components.hour = count
    case "day": components.day = count
    case "week": components.weekOfYear = count
    case "month": components.month = count
    default:
        print("usage: --interval minute|hour|day|week|month")
        exit(2)
    }
    let start = seconds("--start", in: arguments), end = seconds("--end", in: arguments)
    let predicate = start == nil && end == nil ? nil : HKQuery.predicateForSamples(withStart: start, end: end)
    return HKStatisticsCollectionQuery(quantityType: type, quantitySamplePredicate: predicate,
                                       options: statisticsOptions(in: arguments), anchorDate: anchor,
                                       intervalComponents: components, timeZone: zone)
}

/// `collection TYPE --anchor S --interval minute|hour|day|week|month [--count N] --zone ZONE
///  --from S --to S --options … [--start S] [--end E] [--by-source] [--unit U]`: every interval
/// from the one holding --from to the one holding --to, with data or not; `ok` counts those with data.
func runCollection(_ arguments: [String], store: HKHealthStore) async throws {
    guard let from = seconds("--from", in: arguments), let to = seconds("--to", in: arguments) else {
        print("usage: collection TYPE --anchor S --interval UNIT --zone ZONE --from S --to S --options …")
        exit(2)
    }
    let query = collectionQuery(arguments)
    let collection: HKStatisticsCollection = try await withCheckedThrowingContinuation { continuation in
        query.initialResultsHandler = { _, collection, error in
            if let collection { continuation.resume(returning: collection) } else { continuation.resume(throwing: error!) }
        }
        store.execute(query)
    }
    let unit = values(of: "--unit", in: arguments).first.map { HKUnit(from: $0) }
    collection.enumerateStatistics(from: from, to: to) { statistics, _ in printStatistics(statistics, unit: unit) }
    print("ok \(collection.statistics().count)")
}
