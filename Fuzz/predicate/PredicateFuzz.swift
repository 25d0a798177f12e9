import Foundation
import HealthModel
import HealthWire

let probe = SampleRecord(
    uuid: UUID(), typeIdentifier: HKQuantityTypeIdentifier.heartRate.rawValue,
    startDate: Date(timeIntervalSince1970: 1_700_000_000), endDate: Date(timeIntervalSince1970: 1_700_000_060),
    value: .quantity(72, unit: "count/min"),
    metadata: ["HKMetadataKeyHeartRateMotionContext": .number(1), "org.example.q": .quantity(value: 3, unit: "km")],
    device: DeviceRecord(name: "Band", manufacturer: "Acme"), source: SourceRecord(bundleIdentifier: "org.example.app", name: "App"))

/// libFuzzer target: predicate trees as the broker receives them (a SampleQuerySpec payload):
/// decoding with the size limit, conversion to the queried type's canonical unit, the condition
/// count and the reference matcher. Nothing may trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let payload = Array(UnsafeBufferPointer(start: data, count: size))
    guard let spec = try? SampleQuerySpec(wire: payload), let predicate = spec.predicate else { return 0 }
    if predicate.conditionCount > SamplePredicate.maximumConditions { fatalError("the size limit was not applied") }
    _ = predicate.matches(probe)
    for type in [HKQuantityType(.heartRate), HKQuantityType(.bodyTemperature)] as [HKSampleType] {
        if let canonical = try? predicate.canonicalized(for: type) { _ = canonical.matches(probe) }
    }
    return 0
}
