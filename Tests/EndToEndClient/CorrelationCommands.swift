import Foundation
import HealthKit

/// `e2e-client save-blood-pressure SYSTOLIC DIASTOLIC TIME [--diastolic-time T]`: one blood-
/// pressure correlation (mmHg, instantaneous). Prints `ok CORRELATION SYSTOLIC DIASTOLIC` (UUIDs).
func saveBloodPressure(_ store: HKHealthStore, _ arguments: [String]) async throws {
    guard arguments.count >= 4, let high = Double(arguments[1]), let low = Double(arguments[2]),
          let time = Double(arguments[3]) else { usage("save-blood-pressure SYSTOLIC DIASTOLIC TIME [--diastolic-time T]") }
    let date = Date(timeIntervalSince1970: time)
    let lowDate = values(of: "--diastolic-time", in: arguments).first.flatMap(Double.init).map { Date(timeIntervalSince1970: $0) } ?? date
    let mmHg = HKUnit.millimeterOfMercury()
    let systolic = HKQuantitySample(type: HKQuantityType(.bloodPressureSystolic), quantity: HKQuantity(unit: mmHg, doubleValue: high),
                                    start: date, end: date)
    let diastolic = HKQuantitySample(type: HKQuantityType(.bloodPressureDiastolic), quantity: HKQuantity(unit: mmHg, doubleValue: low),
                                     start: lowDate, end: lowDate)
    let reading = HKCorrelation(type: HKCorrelationType(.bloodPressure), start: date, end: date, objects: [systolic, diastolic])
    try await store.save(reading)
    print("ok \(reading.uuid.uuidString) \(systolic.uuid.uuidString) \(diastolic.uuid.uuidString)")
}

/// `e2e-client save-food START END --item TYPE VALUE UNIT…`: one food correlation whose items
/// span the whole meal. Prints `ok CORRELATION`.
func saveFood(_ store: HKHealthStore, _ arguments: [String]) async throws {
    guard arguments.count >= 3, let start = Double(arguments[1]), let end = Double(arguments[2]) else {
        usage("save-food START END --item TYPE VALUE UNIT…")
    }
    let (startDate, endDate) = (Date(timeIntervalSince1970: start), Date(timeIntervalSince1970: end))
    let items = arguments.indices.filter { arguments[$0] == "--item" && $0 + 3 < arguments.count }.map { index -> HKSample in
        guard let itemType = type(arguments[index + 1]) as? HKQuantityType, let value = Double(arguments[index + 2]) else {
            usage("--item TYPE VALUE UNIT")
        }
        return HKQuantitySample(type: itemType, quantity: HKQuantity(unit: HKUnit(from: arguments[index + 3]), doubleValue: value),
                                start: startDate, end: endDate)
    }
    let food = HKCorrelation(type: HKCorrelationType(.food), start: startDate, end: endDate, objects: Set(items),
                             metadata: [HKMetadataKeyFoodType: "test meal"])
    try await store.save(food)
    print("ok \(food.uuid.uuidString)")
}

/// `e2e-client query-correlations TYPE [--sample-query] [--above TYPE VALUE UNIT]…`: with
/// HKCorrelationQuery (each `--above` a sample predicate: a sample of TYPE above VALUE), or with
/// HKSampleQuery. Prints `correlation UUID START SOURCE` then `object TYPE VALUE` (canonical
/// unit) per sample, sorted by type, then `ok COUNT`.
func queryCorrelations(_ store: HKHealthStore, _ arguments: [String]) async throws {
    guard arguments.count >= 2, let correlationType = type(arguments[1]) as? HKCorrelationType else {
        usage("query-correlations TYPE [--sample-query] [--above TYPE VALUE UNIT]…")
    }
    var samplePredicates: [HKSampleType: NSPredicate] = [:]
    for index in arguments.indices where arguments[index] == "--above" && index + 3 < arguments.count {
        guard let sampleType = type(arguments[index + 1]) as? HKSampleType, let value = Double(arguments[index + 2]) else {
            usage("--above TYPE VALUE UNIT")
        }
        samplePredicates[sampleType] = HKQuery.predicateForQuantitySamples(
            with: .greaterThan, quantity: HKQuantity(unit: HKUnit(from: arguments[index + 3]), doubleValue: value))
    }
    let correlations: [HKCorrelation] = try await withCheckedThrowingContinuation { continuation in
        if arguments.contains("--sample-query") {
            let sort = [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)]
            store.execute(HKSampleQuery(sampleType: correlationType, predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: sort) { _, samples, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: (samples ?? []).compactMap { $0 as? HKCorrelation }) }
            })
        } else {
            store.execute(HKCorrelationQuery(type: correlationType, predicate: nil, samplePredicates: samplePredicates.isEmpty ? nil : samplePredicates) { _, correlations, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: correlations ?? []) }
            })
        }
    }
    for correlation in correlations {
        print("correlation \(correlation.uuid.uuidString) \(Int(correlation.startDate.timeIntervalSince1970)) \(correlation.sourceRevision.source.bundleIdentifier)")
        for case let object as HKQuantitySample in correlation.objects.sorted(by: { $0.sampleType.identifier < $1.sampleType.identifier }) {
            print("object \(object.sampleType.identifier) \(object.quantity.doubleValue(for: object.quantityType.canonicalUnit))")
        }
    }
    print("ok \(correlations.count)")
}
