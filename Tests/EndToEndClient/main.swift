// A scripted HealthKit app for the end-to-end tests: each run performs one action through the
// SDK and prints its result in a line-oriented form the tests parse. It is a real, separate
// process, usually started under health-sandbox.
//
//   e2e-client request [--share TYPE]… [--read TYPE]…
//   e2e-client request-status [--share TYPE]… [--read TYPE]…
//   e2e-client status TYPE
//   e2e-client save TYPE VALUE UNIT START END [--meta KEY=KIND:VALUE]…   (START/END: seconds since 1970)
//   e2e-client save-category TYPE VALUE START END [--meta KEY=KIND:VALUE]…
//   e2e-client save-batch --category TYPE VALUE START END [--meta …]… [--category …]…  (one save of all)
//     KIND: string, number, date (seconds since 1970), bool (true/false), quantity (VALUE as NUMBER:UNIT)
//   e2e-client query TYPE [--start S] [--end E] [--strict-start] [--strict-end] [--limit N] [--sort start|end] [--descending] [--unit U]
//   e2e-client anchored TYPE [--anchor-file F] [--limit N] [--updates N]   (see ChangeCommands.swift)
//   e2e-client observe TYPE --count N
//   e2e-client sources TYPE
//   e2e-client save-workout ACTIVITY START END [--duration S] [--energy V:UNIT] [--distance V:UNIT]
//              [--event TYPE:START:END]… [--device NAME] [--meta …]…          (WorkoutCommands.swift)
//   e2e-client query-workouts [--activity RAW]                                  (`workout …` lines)
//   e2e-client add-to-workout WORKOUT TYPE SAMPLE…
//   e2e-client workout-with-steps START END N [--route COUNT]   (saves both, then add(_:to:), reading nothing: works while locked)
//   e2e-client query-associated WORKOUT TYPE
//   e2e-client save-route WORKOUT COUNT [--offset S] [--step S] [--chunk N] [--latitude DEG] [--meta …]…  (RouteCommands.swift)
//   e2e-client query-route WORKOUT [--async]
//   e2e-client insert-route LAT LON TIME
//   e2e-client delete TYPE UUID… [--twice]                                     (DeletionCommands.swift)
//   e2e-client delete-matching TYPE [--start S] [--end E] [--workout UUID]
//   e2e-client delete-objects TYPE UUID [TYPE UUID]…                          (objects of several types in one call)
//   e2e-client statistics TYPE --options sum,avg,min,max,recent,duration [--start S] [--end E] [--by-source] [--unit U]
//   e2e-client collection TYPE --anchor S --interval minute|hour|day|week|month [--count N] --zone ZONE --from S --to S
//              --options … [--start S] [--end E] [--by-source] [--unit U]
//   e2e-client save-blood-pressure SYSTOLIC DIASTOLIC TIME [--diastolic-time T]   (mmHg; an HKCorrelation)
//   e2e-client save-food START END --item TYPE VALUE UNIT…
//   e2e-client query-correlations TYPE [--sample-query] [--above TYPE VALUE UNIT]…
//   e2e-client query-matching TYPE FILTER…              (device, metadata, quantity and category predicates; see PredicateCommands.swift)
//   e2e-client save-from-device TYPE VALUE UNIT TIME NAME MANUFACTURER MODEL HARDWARE FIRMWARE SOFTWARE LOCAL-ID UDI
//   e2e-client describe TYPE                           (each sample's device and source revision)
//   e2e-client characteristics                         (every characteristic, one `characteristic NAME VALUE` line each)
//   e2e-client preferred-units TYPE…                   (`unit TYPE UNIT` lines)
//   e2e-client watch-unit-changes TYPE… --count N       (.HKUserPreferencesDidChange; PreferenceCommands.swift)
//   e2e-client background-enable TYPE [--frequency immediate|hourly|daily|weekly]   (see BackgroundCommands.swift)
//   e2e-client background-disable TYPE | --all
//   (no arguments, OPENHEALTH_LAUNCH_REASON=background-delivery: the background launch, BackgroundCommands.swift)
//   e2e-client activity-summaries [--from DAY --to DAY] [--zone ZONE] [--async]   (`summary …` lines; ActivityCommands.swift)
//   e2e-client collection-updates COLLECTION-ARGS… --updates N [--descriptor] [--linger]  (StatisticsUpdateCommands.swift)
//   e2e-client read-then-leave --observe T --anchored T --collection T --query T --on ready|update --after-ms N
//              --leave exit|stop|stay                (reads, then leaves mid-read; LeaveMidReadCommands.swift)
//   e2e-client query-ordered TYPE [--start S] [--end E] [--strict-start] [--strict-end] [--limit N] [--sort start|end:asc|desc]…
//   e2e-client snippet NAME [COUNT [SIZE]]             (HealthKit code as Apple documents it; AppleSnippets.swift)
//   e2e-client workout-snippet NAME [ARGS…]            (live workout recording as Apple documents it; WorkoutSnippets.swift)
//   e2e-client attachment-snippet NAME [ARGS…]         (HKAttachmentStore as Apple documents it; AttachmentSnippets.swift)
//   e2e-client kind-predicate QUERY TYPE PREDICATE ARGS…  (issue 15's workout/activity/category/ECG predicates; KindPredicateCommands.swift)
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

/// A command-line mistake in a test's call: exit status 2, distinct from the SDK's errors (3).
func usage(_ text: String) -> Never {
    print("usage: \(text)")
    exit(2)
}

func type(_ identifier: String) -> HKObjectType {
    guard let type = HKObjectType.type(forIdentifier: identifier) else {
        print("usage: unknown type \(identifier)")
        exit(2)
    }
    return type
}

/// `--meta KEY=KIND:VALUE` options as a HealthKit-style metadata dictionary, nil when there are none.
func metadata(in arguments: [String]) -> [String: Any]? {
    var result: [String: Any] = [:]
    for option in values(of: "--meta", in: arguments) {
        let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
        let typed = parts.count == 2 ? parts[1].split(separator: ":", maxSplits: 1).map(String.init) : []
        guard typed.count == 2, let value = metadataValue(kind: typed[0], text: typed[1]) else {
            print("usage: --meta KEY=KIND:VALUE, got \(option)")
            exit(2)
        }
        result[parts[0]] = value
    }
    return result.isEmpty ? nil : result
}

func metadataValue(kind: String, text: String) -> Any? {
    switch kind {
    case "string": return text
    case "number": return Double(text)
    case "date": return Double(text).map { Date(timeIntervalSince1970: $0) }
    case "bool": return text == "true" ? true : text == "false" ? false : nil
    case "quantity":
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let number = Double(parts[0]) else { return nil }
        return HKQuantity(unit: HKUnit(from: parts[1]), doubleValue: number)
    default: return nil
    }
}

/// `TYPE VALUE START END` (the rest of `arguments`: its options) as a category sample.
func categorySample(_ arguments: ArraySlice<String>) -> HKCategorySample {
    let fields = Array(arguments)
    guard fields.count >= 4, let categoryType = type(fields[0]) as? HKCategoryType, let value = Int(fields[1]),
          let start = Double(fields[2]), let end = Double(fields[3]) else {
        print("usage: TYPE VALUE START END")
        exit(2)
    }
    return HKCategorySample(type: categoryType, value: value, start: Date(timeIntervalSince1970: start),
                            end: Date(timeIntervalSince1970: end), metadata: metadata(in: Array(fields.dropFirst(4))))
}

func values(of flag: String, in arguments: [String]) -> [String] {
    arguments.indices.filter { arguments[$0] == flag && $0 + 1 < arguments.count }.map { arguments[$0 + 1] }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let store = HKHealthStore()
guard let command = arguments.first ?? launchedCommand() else {
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
                                      start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end),
                                      metadata: metadata(in: arguments))
        try await store.save(sample)
        print("ok \(sample.uuid.uuidString)")
    case "save-category":
        let sample = categorySample(arguments.dropFirst())
        try await store.save(sample)
        print("ok \(sample.uuid.uuidString)")
    case "save-batch":
        // Each `--category` starts one sample; its fields and options run to the next one.
        let starts = arguments.indices.filter { arguments[$0] == "--category" }
        let samples = starts.enumerated().map { number, index in
            categorySample(arguments[(index + 1)..<(number + 1 < starts.count ? starts[number + 1] : arguments.endIndex)])
        }
        try await store.save(samples)
        print("ok \(samples.map(\.uuid.uuidString).joined(separator: " "))")
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
        for case let sample as HKCategorySample in samples {
            print("sample \(sample.uuid.uuidString) \(Int(sample.startDate.timeIntervalSince1970)) \(Int(sample.endDate.timeIntervalSince1970)) \(sample.value) \(sample.sourceRevision.source.bundleIdentifier)")
        }
        print("ok \(samples.count)")
    case "anchored":
        try await anchoredCommand(arguments, store: store)
    case "observe":
        try await observeCommand(arguments, store: store)
    case "sources":
        try await sourcesCommand(arguments, store: store)
    case "save-workout": try await saveWorkoutCommand(arguments)
    case "query-workouts": try await queryWorkoutsCommand(arguments)
    case "add-to-workout": try await addToWorkoutCommand(arguments)
    case "workout-with-steps": try await workoutWithStepsCommand(arguments)
    case "query-associated": try await queryAssociatedCommand(arguments)
    case "save-route": try await saveRouteCommand(arguments)
    case "query-route": try await queryRouteCommand(arguments)
    case "insert-route": try await insertRouteCommand(arguments)
    case "delete": try await deleteCommand(arguments)
    case "delete-matching": try await deleteMatchingCommand(arguments)
    case "delete-objects": try await deleteObjectsCommand(arguments)
    case "statistics":
        try await runStatistics(arguments, store: store)
    case "collection":
        try await runCollection(arguments, store: store)
    case "save-blood-pressure":
        try await saveBloodPressure(store, arguments)
    case "save-food":
        try await saveFood(store, arguments)
    case "query-correlations":
        try await queryCorrelations(store, arguments)
    case "query-matching":
        try await queryMatching(store, arguments)
    case "save-from-device":
        try await saveFromDevice(store, arguments)
    case "describe":
        try await describeSamples(store, arguments)
    case "characteristics":
        try readCharacteristics(store)
    case "preferred-units":
        try await preferredUnits(store, arguments)
    case "watch-unit-changes":
        try await watchUnitChanges(arguments)
    case "background-enable":
        try await backgroundEnableCommand(arguments, store: store)
    case "background-disable":
        try await backgroundDisableCommand(arguments, store: store)
    case "background-launch":
        try await backgroundLaunchCommand(store: store)
    case "activity-summaries":
        try await activitySummaries(store, arguments)
    case "read-then-leave":
        try await readThenLeaveCommand(arguments, store: store)
    case "collection-updates":
        try await collectionUpdatesCommand(arguments, store: store)
    case "query-ordered":
        try await orderedQueryCommand(arguments, store: store)
    case "series":
        try await seriesCommand(arguments, store: store)
    case "snippet":
        guard (2...4).contains(arguments.count) else { usage("snippet NAME [COUNT [SIZE]]") }
        try await runSnippet(arguments[1], store)
    case "kind-predicate":
        try await kindPredicateCommand(store, arguments)
    case "workout-snippet":
        guard arguments.count >= 2 else { usage("workout-snippet NAME [ARGS…]") }
        try await runWorkoutSnippet(arguments[1], Array(arguments.dropFirst(2)), store)
    case "row-snippet":
        guard arguments.count >= 2 else { usage("row-snippet NAME [ARGS…]") }
        try await runRowSnippet(arguments[1], Array(arguments.dropFirst(2)), store)
    case "attachment-snippet":
        guard arguments.count >= 2 else { usage("attachment-snippet NAME [ARGS…]") }
        try await runAttachmentSnippet(arguments[1], Array(arguments.dropFirst(2)), store)
    default:
        print("usage: unknown command \(command)")
        exit(2)
    }
} catch {
    fail(error)
}
