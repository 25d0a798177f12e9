/// HealthKit's async source query (iOS 15.4): `try await HKSourceQueryDescriptor(predicate:
/// .workout()).result(for: store)` lists the apps that saved matching samples the app may read
/// (as `HKSourceQuery`: without read permission, only the app itself when it saved some).
public struct HKSourceQueryDescriptor<Sample: HKSample>: Sendable {
    public let predicate: HKSamplePredicate<Sample>

    public init(predicate: HKSamplePredicate<Sample>) {
        self.predicate = predicate
    }

    /// As Apple documents it, this creates an `HKSourceQuery` and runs it with the store's
    /// `execute(_:)` — so a subclass of `HKHealthStore` that overrides `execute` answers it too.
    /// Cancelling the calling task stops the query (`stop(_:)`) and throws its cancellation
    /// error. Apple leaves the order open; here sources come sorted by name, then bundle
    /// identifier, so the same store gives the same array.
    public func result(for healthStore: HKHealthStore) async throws -> [HKSource] {
        let sampleType = predicate.sampleType
        let nsPredicate = predicate.nsPredicate
        let sources: Set<HKSource> = try await OneAnswerQueryRun.result(on: healthStore, missing: "sources") { answer in
            HKSourceQuery(sampleType: sampleType, samplePredicate: nsPredicate) { _, sources, error in answer(sources, error) }
        }
        return sources.sorted { ($0.name, $0.bundleIdentifier) < ($1.name, $1.bundleIdentifier) }
    }
}
