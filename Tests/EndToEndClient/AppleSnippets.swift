import Foundation
import HealthKit

// `snippet NAME` command of the scripted app: HealthKit code written as Apple documents it,
// unchanged, run against the real healthd. Each prints what the test (AppleSnippetTests)
// checks against Apple's documented behaviour, then `ok …`. The names of the variables and the
// shape of each block are Apple's; only the `print` lines are the test's.

func runSnippet(_ name: String, _ healthStore: HKHealthStore) async throws {
    switch name {
    case "default-source": defaultSource()
    case "health-data-available": healthDataAvailable()
    case "workout-predicates": try await workoutPredicatesSnippet(healthStore)
    case "own-steps": try await ownSteps(healthStore)
    case "share-exercise-time": try await shareExerciseTime(healthStore)
    case "delete-nothing": try await deleteNothing(healthStore)
    case "same-sample-twice": try await sameSampleTwice(healthStore)
    case "archive-anchor": try await archiveAnchor(healthStore)
    case "archive-samples": try await archiveSamples(healthStore)
    case "archive-statistics": try await archiveStatisticsAndConfiguration(healthStore)
    case "source-revision": sourceRevision()
    case "request-status": try await requestStatus(healthStore)
    case "observe-descriptors": try await observeDescriptors(healthStore)
    case "anchored-descriptors": try await anchoredDescriptors(healthStore)
    case "anchored-descriptor-async": try await anchoredDescriptorAsync(healthStore)
    case "revision-steps": try await revisionSteps(healthStore)
    case "revision-systems": try await revisionSystems(healthStore)
    case "revision-system-predicates":
        guard CommandLine.arguments.count > 3 else { usage("snippet revision-system-predicates BUNDLE") }
        try await revisionSystemPredicates(healthStore, bundleIdentifier: CommandLine.arguments[3])
    case "device-steps": try await deviceSteps(healthStore)
    case "heartbeat-builder": try await heartbeatBuilderSnippet(healthStore)
    case "electrocardiogram": try await electrocardiogramSnippet(healthStore)
    case "state-of-mind": try await stateOfMindSnippet(healthStore)
    case "state-of-mind-out-of-range": try await stateOfMindOutOfRangeSnippet(healthStore)
    case "assessments": try await assessmentsSnippet(healthStore)
    case "assessments-save": try await assessmentsSnippet(healthStore, read: false)
    case "assessments-read": try await assessmentsSnippet(healthStore, save: false)
    case "assessment-refused": try await assessmentRefusedSnippet(healthStore)
    case "audiogram": try await audiogramSnippet(healthStore)
    case "audiogram-save": try await audiogramSnippet(healthStore, read: false)
    case "audiogram-read": try await audiogramSnippet(healthStore, save: false)
    case "audiogram-refused": try await audiogramRefusedSnippet(healthStore)
    case "cda-save": try await cdaSaveSnippet(healthStore, count: snippetCount(), padding: snippetPadding())
    case "cda-document-query": try await cdaDocumentQuerySnippet(healthStore, includeDocumentData: true)
    case "cda-document-query-no-data": try await cdaDocumentQuerySnippet(healthStore, includeDocumentData: false)
    case "cda-sample-query": try await cdaSampleQuerySnippet(healthStore)
    case "cda-refused": cdaRefusedSnippet()
    case "cda-delete": try await cdaDeleteSnippet(healthStore)
    case "clinical-request": try await clinicalRequestSnippet(healthStore)
    case "clinical-share": try await clinicalShareSnippet(healthStore)
    case "clinical-records": try await clinicalRecordsSnippet(healthStore)
    case "clinical-resave": try await clinicalResaveSnippet(healthStore)
    case "vision": try await visionPrescriptionsSnippet(healthStore)
    case "vision-save": try await visionPrescriptionsSnippet(healthStore, read: false)
    case "vision-read": try await visionPrescriptionsSnippet(healthStore, save: false)
    case "vision-read-request": try await visionReadRequestRefusedSnippet(healthStore)
    case "vision-refused": try await visionRefusedSnippet(healthStore)
    case "vision-per-object": try await visionPerObjectReadSnippet(healthStore)
    case "vcr-immunization-6-months": try await verifiableRecordQuerySnippet(healthStore)
    case "vcr-descriptor": try await verifiableRecordDescriptorSnippet(healthStore)
    case "vision-visible": try await printVisiblePrescriptions(healthStore)
    case "medications-per-object": try await medicationsPerObjectSnippet(healthStore)
    case "medications-visible": try await medicationsVisibleSnippet(healthStore)
    case "medication-scheduled-dose": try await medicationScheduledDoseSnippet(healthStore)
    case "medications-refused": try await medicationsRefusedSnippet(healthStore)
    case "quantity-sample-kinds": try await quantitySampleKindsSnippet(healthStore)
    case "quantity-series-steps": try await quantitySeriesStepsSnippet(healthStore)
    case "quantity-series-heart-rate": try await quantitySeriesHeartRateSnippet(healthStore)
    case "quantity-series-refusals": try await quantitySeriesRefusalsSnippet(healthStore)
    case "uncorrelated-systolic": try await uncorrelatedSystolic(healthStore)
    case "descriptor-samples": try await descriptorSamples(healthStore)
    case "descriptors-limit": try await descriptorsWithLimit(healthStore)
    case "descriptor-overlaps": try await descriptorOverlaps(healthStore)
    case "correlations-by-date": try await correlationsByDate(healthStore)
    case "empty-interval-statistics": try await emptyIntervalStatistics(healthStore)
    case "watch-activity-summaries": try await watchActivitySummaries(healthStore, updates: snippetCount())
    case "statistics-without-options": try await statisticsWithoutOptionsSnippet(healthStore)
    case "activity-summary-results": try await activitySummaryResults(healthStore, elements: snippetCount())
    default: usage("unknown snippet \(name)")
    }
}

/// HKSource.default(): "Returns the source for the current app." The bundle identifier is the
/// app's (here: its app id), the one healthd records on its saves.
func defaultSource() {
    let source = HKSource.default()
    print("ok \(source.bundleIdentifier) \(source.name)")
}

/// Apple's pattern for "only my app's samples": predicateForObjects(from: HKSource.default()).
func ownSteps(_ healthStore: HKHealthStore) async throws {
    guard let stepType = HKObjectType.quantityType(forIdentifier: .stepCount) else {
        usage("*** Unable to create a step count type ***")
    }
    let predicate = HKQuery.predicateForObjects(from: HKSource.default())
    let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(sampleType: stepType, predicate: predicate, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: nil) { query, results, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
        }
        healthStore.execute(query)
    }
    let mine = samples.filter { $0.sourceRevision.source == HKSource.default() }
    print("ok \(samples.count) \(mine.count)")
}

/// A share set with an Apple-computed type: HealthKit refuses it ("Authorization to share the
/// following types is disallowed: …") before showing anything.
func shareExerciseTime(_ healthStore: HKHealthStore) async throws {
    let typesToShare: Set = [HKQuantityType(.appleExerciseTime), HKQuantityType(.stepCount)]
    let typesToRead: Set = [HKQuantityType(.appleExerciseTime)]
    try await healthStore.requestAuthorization(toShare: typesToShare, read: typesToRead)
    print("ok requested")
}

/// delete(_:) with an empty array fails with errorInvalidArgument in HealthKit.
func deleteNothing(_ healthStore: HKHealthStore) async throws {
    try await healthStore.delete([HKObject]())
    print("ok deleted")
}

/// HKObject equality is by UUID: the same stored sample fetched twice is equal, hashes alike,
/// and a Set of both holds one.
func sameSampleTwice(_ healthStore: HKHealthStore) async throws {
    let stepType = HKQuantityType(.stepCount)
    func fetch() async throws -> [HKSample] {
        let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: stepType)], sortDescriptors: [])
        return try await descriptor.result(for: healthStore)
    }
    let first = try await fetch()
    let second = try await fetch()
    let union = Set(first).union(second)
    print("ok \(first.count) \(union.count) \(first.first.map { second.contains($0) } ?? false)")
}

/// Persisting an anchor as Apple's sample code does, and resuming from it: the second run sees
/// no new samples.
func archiveAnchor(_ healthStore: HKHealthStore) async throws {
    let stepType = HKQuantityType(.stepCount)
    func run(from anchor: HKQueryAnchor?) async throws -> (Int, HKQueryAnchor?) {
        try await withCheckedThrowingContinuation { continuation in
            let query = HKAnchoredObjectQuery(type: stepType, predicate: nil, anchor: anchor, limit: HKObjectQueryNoLimit) {
                query, samplesOrNil, deletedObjectsOrNil, newAnchor, errorOrNil in
                if let errorOrNil { continuation.resume(throwing: errorOrNil) } else {
                    continuation.resume(returning: (samplesOrNil?.count ?? 0, newAnchor))
                }
            }
            healthStore.execute(query)
        }
    }
    let (initial, newAnchor) = try await run(from: HKQueryAnchor(fromValue: HKAnchoredObjectQueryNoAnchor))
    let data = try NSKeyedArchiver.archivedData(withRootObject: newAnchor as Any, requiringSecureCoding: true)
    let restored = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
    let (later, _) = try await run(from: restored)
    print("ok \(initial) \(later)")
}

/// Persisting fetched samples, their type and unit as Apple's sample code persists anchors:
/// each restored sample equals the fetched one (same UUID), with its quantity, dates and source.
func archiveSamples(_ healthStore: HKHealthStore) async throws {
    let stepType = HKQuantityType(.stepCount)
    let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: stepType)], sortDescriptors: [])
    let samples = try await descriptor.result(for: healthStore)
    var restored: [HKQuantitySample] = []
    for sample in samples {
        let data = try NSKeyedArchiver.archivedData(withRootObject: sample, requiringSecureCoding: true)
        if let object = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQuantitySample.self, from: data) {
            restored.append(object)
        }
    }
    let same = restored.count == samples.count && zip(samples, restored).allSatisfy { fetched, back in
        fetched == back && fetched.quantity == back.quantity && fetched.startDate == back.startDate
            && fetched.endDate == back.endDate && fetched.sourceRevision == back.sourceRevision && back is HKCumulativeQuantitySample
    }
    let typeData = try NSKeyedArchiver.archivedData(withRootObject: stepType, requiringSecureCoding: true)
    let restoredType = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQuantityType.self, from: typeData)
    let unitData = try NSKeyedArchiver.archivedData(withRootObject: HKUnit.count(), requiringSecureCoding: true)
    let restoredUnit = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKUnit.self, from: unitData)
    print("ok \(samples.count) \(restored.count) \(same) \(Set(samples).union(restored).count) "
          + "\(restoredType == stepType) \(restoredUnit == HKUnit.count())")
}

/// HKSourceRevision's 4-argument initializer and the "any" constants compile and keep what they
/// were given.
func sourceRevision() {
    let revision = HKSourceRevision(source: HKSource.default(), version: HKSourceRevisionAnyVersion,
                                    productType: HKSourceRevisionAnyProductType,
                                    operatingSystemVersion: HKSourceRevisionAnyOperatingSystem)
    print("ok \(revision.version ?? "nil") \(revision.productType ?? "nil") \(revision.operatingSystemVersion.majorVersion)")
}

/// statusForAuthorizationRequest(toShare:read:) (iOS 15): `.shouldRequest` before the app asked,
/// `.unnecessary` once every type was decided.
func requestStatus(_ healthStore: HKHealthStore) async throws {
    let allTypes: Set = [HKQuantityType(.stepCount)]
    let status = try await healthStore.statusForAuthorizationRequest(toShare: allTypes, read: allTypes)
    print("ok \(status == .shouldRequest ? "shouldRequest" : status == .unnecessary ? "unnecessary" : "unknown")")
}

/// One observer over two types (HKObserverQuery(queryDescriptors:updateHandler:), iOS 15): each
/// update names the types that changed. Prints `types N TYPE,…` and `update N` per update; stops after 3.
func observeDescriptors(_ healthStore: HKHealthStore) async throws {
    let queryDescriptors = [HKQueryDescriptor(sampleType: HKQuantityType(.stepCount), predicate: nil),
                            HKQueryDescriptor(sampleType: HKQuantityType(.heartRate), predicate: nil)]
    let updates = AsyncThrowingStream<Set<HKSampleType>, any Error>.makeStream()
    let query = HKObserverQuery(queryDescriptors: queryDescriptors) { query, updatedSampleTypes, completionHandler, errorOrNil in
        if let errorOrNil {
            updates.continuation.finish(throwing: errorOrNil)
            return
        }
        updates.continuation.yield(updatedSampleTypes ?? [])
        completionHandler()
    }
    healthStore.execute(query)
    var count = 0
    for try await types in updates.stream {
        count += 1
        emit("types \(count) \(types.map(\.identifier).sorted().joined(separator: ","))")
        emit("update \(count)")
        if count == 3 { break }
    }
    healthStore.stop(query)
    emit("ok \(count)")
}

/// predicateForObjects(from: Set<HKSourceRevision>): the revision of one of the app's own samples
/// selects exactly the app's samples saved at that version; with HKSourceRevisionAnyVersion any
/// version of the app; with another version, or a product type this host is not (iPhone14,2), none.
/// Prints the four counts.
func revisionSteps(_ healthStore: HKHealthStore) async throws {
    let stepType = HKQuantityType(.stepCount)
    func count(_ predicate: NSPredicate) async throws -> Int {
        let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: stepType, predicate: predicate)], sortDescriptors: [])
        return try await descriptor.result(for: healthStore).count
    }
    let own = HKSampleQueryDescriptor(predicates: [.quantitySample(type: stepType, predicate: HKQuery.predicateForObjects(from: HKSource.default()))],
                                      sortDescriptors: [], limit: 1)
    guard let revision = try await own.result(for: healthStore).first?.sourceRevision else { usage("save a step sample first") }
    let anyVersion = HKSourceRevision(source: revision.source, version: HKSourceRevisionAnyVersion)
    let otherVersion = HKSourceRevision(source: revision.source, version: "no-such-version")
    let onIPhone = HKSourceRevision(source: revision.source, version: HKSourceRevisionAnyVersion, productType: "iPhone14,2",
                                    operatingSystemVersion: HKSourceRevisionAnyOperatingSystem)
    let counts = [try await count(HKQuery.predicateForObjects(from: [revision])),
                  try await count(HKQuery.predicateForObjects(from: [anyVersion])),
                  try await count(HKQuery.predicateForObjects(from: [otherVersion])),
                  try await count(HKQuery.predicateForObjects(from: [onIPhone]))]
    print("ok \(counts.map(String.init).joined(separator: " "))")
}

/// predicateForObjects(from: Set<HKDevice>): the devices of the fetched samples select exactly
/// the samples recorded by them; a device equal but for one unset property selects none.
/// Prints the number of samples, of distinct devices, and the two counts.
func deviceSteps(_ healthStore: HKHealthStore) async throws {
    let stepType = HKQuantityType(.stepCount)
    func samples(_ predicate: NSPredicate?) async throws -> [HKQuantitySample] {
        try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: stepType, predicate: predicate)], sortDescriptors: []).result(for: healthStore)
    }
    let all = try await samples(nil)
    let devices = Set(all.compactMap(\.device))
    guard let watch = devices.first(where: { $0.name == "Watch" }) else { usage("save a step sample from a device named Watch first") }
    let withoutModel = HKDevice(name: watch.name, manufacturer: watch.manufacturer, model: nil, hardwareVersion: watch.hardwareVersion,
                                firmwareVersion: watch.firmwareVersion, softwareVersion: watch.softwareVersion,
                                localIdentifier: watch.localIdentifier, udiDeviceIdentifier: watch.udiDeviceIdentifier)
    let fromWatch = try await samples(HKQuery.predicateForObjects(from: [watch]))
    let fromOther = try await samples(HKQuery.predicateForObjects(from: [withoutModel]))
    print("ok \(all.count) \(devices.count) \(fromWatch.count) \(fromOther.count)")
}
