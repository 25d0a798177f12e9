import Foundation
import HealthKit

/// HKSourceRevision's productType and operatingSystemVersion on fetched samples, read through a
/// sample query and an anchored query: prints one `sample BUNDLE|VERSION|M.m.p|PRODUCT` and one
/// `anchored …` line per distinct revision of the step samples the app can read (sorted), then
/// `ok COUNT`. The product type is last: a machine's model name may hold spaces and '|'.
func revisionSystems(_ healthStore: HKHealthStore) async throws {
    let stepType = HKQuantityType(.stepCount)
    func line(_ revision: HKSourceRevision) -> String {
        let system = revision.operatingSystemVersion
        return "\(revision.source.bundleIdentifier)|\(revision.version ?? "nil")|"
            + "\(system.majorVersion).\(system.minorVersion).\(system.patchVersion)|\(revision.productType ?? "nil")"
    }
    let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: stepType)], sortDescriptors: [])
    let samples = try await descriptor.result(for: healthStore)
    for revision in Set(samples.map { line($0.sourceRevision) }).sorted() { emit("sample \(revision)") }
    let anchored = HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: stepType)], anchor: nil)
    let added = try await anchored.result(for: healthStore).addedSamples
    for revision in Set(added.map { line($0.sourceRevision) }).sorted() { emit("anchored \(revision)") }
    emit("ok \(samples.count)")
}

/// predicateForObjects(from: Set<HKSourceRevision>) with productType and operatingSystemVersion
/// (developer.apple.com/documentation/healthkit/hksourcerevision/init(source:version:producttype:operatingsystemversion:)):
/// the revision of the first step sample `bundleIdentifier` saved, then that revision with one
/// field changed at a time — another product type, HKSourceRevisionAnyProductType, another
/// system version, HKSourceRevisionAnyOperatingSystem — each counted. Prints the five counts.
func revisionSystemPredicates(_ healthStore: HKHealthStore, bundleIdentifier: String) async throws {
    let stepType = HKQuantityType(.stepCount)
    func count(_ predicate: NSPredicate) async throws -> Int {
        let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: stepType, predicate: predicate)], sortDescriptors: [])
        return try await descriptor.result(for: healthStore).count
    }
    let all = HKSampleQueryDescriptor(predicates: [.quantitySample(type: stepType)], sortDescriptors: [])
    guard let revision = try await all.result(for: healthStore).first(where: { $0.sourceRevision.source.bundleIdentifier == bundleIdentifier })?
        .sourceRevision else { usage("no step sample of \(bundleIdentifier)") }
    let system = revision.operatingSystemVersion
    let otherSystem = OperatingSystemVersion(majorVersion: system.majorVersion + 1, minorVersion: system.minorVersion,
                                             patchVersion: system.patchVersion)
    let variants = [
        revision,
        HKSourceRevision(source: revision.source, version: revision.version, productType: "iPhone14,2",
                         operatingSystemVersion: system),
        HKSourceRevision(source: revision.source, version: revision.version, productType: HKSourceRevisionAnyProductType,
                         operatingSystemVersion: system),
        HKSourceRevision(source: revision.source, version: revision.version, productType: revision.productType,
                         operatingSystemVersion: otherSystem),
        HKSourceRevision(source: revision.source, version: revision.version, productType: revision.productType,
                         operatingSystemVersion: HKSourceRevisionAnyOperatingSystem),
    ]
    var counts: [Int] = []
    for variant in variants { counts.append(try await count(HKQuery.predicateForObjects(from: [variant]))) }
    emit("ok \(counts.map(String.init).joined(separator: " "))")
}
