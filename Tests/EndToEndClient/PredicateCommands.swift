import Foundation
import HealthKit

/// `e2e-client query-matching TYPE FILTER…`: an HKSampleQuery whose predicate is the AND of the
/// filters, oldest first; prints `sample UUID START END VALUE SOURCE` lines and `ok COUNT`.
///   --device PROPERTY VALUE[,VALUE…]        predicateForObjects(withDeviceProperty:allowedValues:) (PROPERTY: HKDevicePropertyKey… string)
///   --has-meta KEY                          predicateForObjects(withMetadataKey:)
///   --meta-in KEY KIND:VALUE[,KIND:VALUE…]  predicateForObjects(withMetadataKey:allowedValues:)
///   --meta KEY OP KIND:VALUE                predicateForObjects(withMetadataKey:operatorType:value:)
///   --quantity OP VALUE UNIT                predicateForQuantitySamples(with:quantity:)
///   --category OP VALUE                     predicateForCategorySamples(with:value:)
///   --not                                   negates the whole AND
/// OP: lt, le, gt, ge, eq, ne (or any other word, passed as .like to show the refusal).
func queryMatching(_ store: HKHealthStore, _ arguments: [String]) async throws {
    guard arguments.count >= 2, let sampleType = type(arguments[1]) as? HKSampleType else { usage("query-matching TYPE FILTER…") }
    var filters: [NSPredicate] = []
    var index = 2
    func next(_ count: Int) -> [String] {
        guard index + count < arguments.count else { usage("\(arguments[index]) needs \(count) values") }
        defer { index += count + 1 }
        return Array(arguments[(index + 1)...(index + count)])
    }
    while index < arguments.count {
        switch arguments[index] {
        case "--device":
            let fields = next(2)
            filters.append(HKQuery.predicateForObjects(withDeviceProperty: fields[0], allowedValues: Set(fields[1].split(separator: ",").map(String.init))))
        case "--has-meta":
            filters.append(HKQuery.predicateForObjects(withMetadataKey: next(1)[0]))
        case "--meta-in":
            let fields = next(2)
            let values = fields[1].split(separator: ",").compactMap { typedValue(String($0)) }
            filters.append(HKQuery.predicateForObjects(withMetadataKey: fields[0], allowedValues: values))
        case "--meta":
            let fields = next(3)
            guard let value = typedValue(fields[2]) else { usage("--meta KEY OP KIND:VALUE") }
            filters.append(HKQuery.predicateForObjects(withMetadataKey: fields[0], operatorType: comparison(fields[1]), value: value))
        case "--quantity":
            let fields = next(3)
            guard let value = Double(fields[1]) else { usage("--quantity OP VALUE UNIT") }
            filters.append(HKQuery.predicateForQuantitySamples(with: comparison(fields[0]), quantity: HKQuantity(unit: HKUnit(from: fields[2]), doubleValue: value)))
        case "--category":
            let fields = next(2)
            guard let value = Int(fields[1]) else { usage("--category OP VALUE") }
            filters.append(HKQuery.predicateForCategorySamples(with: comparison(fields[0]), value: value))
        case "--not":
            index += 1
        default:
            usage("unknown filter \(arguments[index])")
        }
    }
    var predicate: NSPredicate = NSCompoundPredicate(andPredicateWithSubpredicates: filters)
    if arguments.contains("--not") { predicate = NSCompoundPredicate(notPredicateWithSubpredicate: predicate) }
    let sort = [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)]
    let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        store.execute(HKSampleQuery(sampleType: sampleType, predicate: predicate, limit: HKObjectQueryNoLimit, sortDescriptors: sort) { _, samples, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
        })
    }
    for sample in samples {
        let value: Double
        switch sample {
        case let quantity as HKQuantitySample: value = quantity.quantity.doubleValue(for: quantity.quantityType.canonicalUnit)
        case let category as HKCategorySample: value = Double(category.value)
        default: value = .nan
        }
        print("sample \(sample.uuid.uuidString) \(Int(sample.startDate.timeIntervalSince1970)) \(Int(sample.endDate.timeIntervalSince1970)) \(value) \(sample.sourceRevision.source.bundleIdentifier)")
    }
    print("ok \(samples.count)")
}

/// `KIND:VALUE` as a metadata value (the kinds of `--meta` on save).
private func typedValue(_ text: String) -> Any? {
    let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
    return parts.count == 2 ? metadataValue(kind: parts[0], text: parts[1]) : nil
}

private func comparison(_ word: String) -> NSComparisonPredicate.Operator {
    switch word {
    case "lt": .lessThan
    case "le": .lessThanOrEqualTo
    case "gt": .greaterThan
    case "ge": .greaterThanOrEqualTo
    case "eq": .equalTo
    case "ne": .notEqualTo
    default: .like
    }
}

/// `e2e-client save-from-device TYPE VALUE UNIT TIME NAME MANUFACTURER MODEL HARDWARE FIRMWARE
/// SOFTWARE LOCAL-ID UDI`: a quantity sample from a device with all eight properties set.
/// Prints `ok UUID`.
func saveFromDevice(_ store: HKHealthStore, _ arguments: [String]) async throws {
    guard arguments.count >= 13, let quantityType = type(arguments[1]) as? HKQuantityType, let value = Double(arguments[2]),
          let time = Double(arguments[4]) else { usage("save-from-device TYPE VALUE UNIT TIME and eight device properties") }
    let p = Array(arguments[5...12])
    let device = HKDevice(name: p[0], manufacturer: p[1], model: p[2], hardwareVersion: p[3], firmwareVersion: p[4],
                          softwareVersion: p[5], localIdentifier: p[6], udiDeviceIdentifier: p[7])
    let date = Date(timeIntervalSince1970: time)
    let sample = HKQuantitySample(type: quantityType, quantity: HKQuantity(unit: HKUnit(from: arguments[3]), doubleValue: value),
                                  start: date, end: date, device: device, metadata: nil)
    try await store.save(sample)
    print("ok \(sample.uuid.uuidString)")
}

/// `e2e-client describe TYPE`: every sample's device and source revision, as
/// `device UUID NAME|MANUFACTURER|…` (eight fields, `-` for unset) and
/// `source UUID BUNDLE-ID|NAME|VERSION` lines, then `ok COUNT`.
func describeSamples(_ store: HKHealthStore, _ arguments: [String]) async throws {
    guard arguments.count >= 2, let sampleType = type(arguments[1]) as? HKSampleType else { usage("describe TYPE") }
    let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        store.execute(HKSampleQuery(sampleType: sampleType, predicate: nil, limit: HKObjectQueryNoLimit, sortDescriptors: nil) { _, samples, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
        })
    }
    for sample in samples {
        let d = sample.device
        let fields = [d?.name, d?.manufacturer, d?.model, d?.hardwareVersion, d?.firmwareVersion, d?.softwareVersion,
                      d?.localIdentifier, d?.udiDeviceIdentifier]
        print("device \(sample.uuid.uuidString) \(fields.map { $0 ?? "-" }.joined(separator: "|"))")
        let revision = sample.sourceRevision
        print("source \(sample.uuid.uuidString) \(revision.source.bundleIdentifier)|\(revision.source.name)|\(revision.version ?? "-")")
    }
    print("ok \(samples.count)")
}
