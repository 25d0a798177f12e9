// Deliberately NOT `@testable`: a `@testable import` lets a test subclass a public class and
// override its public methods, which would hide the very defect this file guards against
// (HKHealthStore final, its methods in extensions). Apps import HealthKit plainly.
import HealthKit
import Testing

// The two mocks are written as public HealthKit projects write theirs (completion-handler era
// and Swift-concurrency era), unchanged apart from recording what they were called with.

/// Completion-handler style: overrides execute/stop, authorization, status and save.
class CompletionMockHealthStore: HKHealthStore {
    var executedQueries: [HKQuery] = []
    var stoppedQueries: [HKQuery] = []
    var requestedShareTypes: Set<HKSampleType>?
    var savedObjects: [HKObject] = []
    var statusToReturn: HKAuthorizationStatus = .sharingAuthorized

    override func execute(_ query: HKQuery) {
        executedQueries.append(query)
    }

    override func stop(_ query: HKQuery) {
        stoppedQueries.append(query)
    }

    override func requestAuthorization(toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
                                       completion: @escaping (Bool, Error?) -> Void) {
        requestedShareTypes = typesToShare
        completion(true, nil)
    }

    override func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus {
        statusToReturn
    }

    override func save(_ object: HKObject, withCompletion completion: @escaping (Bool, Error?) -> Void) {
        savedObjects.append(object)
        completion(true, nil)
    }

    override func getRequestStatusForAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>,
                                                   completion: @escaping (HKAuthorizationRequestStatus, Error?) -> Void) {
        completion(.unnecessary, nil)
    }
}

/// Swift-concurrency style: overrides the async forms.
final class AsyncMockHealthStore: HKHealthStore {
    var authorizationRequests = 0
    var savedObjects: [HKObject] = []
    var deletedObjects: [HKObject] = []

    override func requestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws {
        authorizationRequests += 1
    }

    override func statusForAuthorizationRequest(toShare typesToShare: Set<HKSampleType>,
                                                read typesToRead: Set<HKObjectType>) async throws -> HKAuthorizationRequestStatus {
        .shouldRequest
    }

    override func save(_ objects: [HKObject]) async throws {
        savedObjects += objects
    }

    override func delete(_ object: HKObject) async throws {
        deletedObjects.append(object)
    }

    override func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency) async throws {}

    override func preferredUnits(for quantityTypes: Set<HKQuantityType>) async throws -> [HKQuantityType: HKUnit] {
        Dictionary(uniqueKeysWithValues: quantityTypes.map { ($0, HKUnit.count()) })
    }

    override func dateOfBirthComponents() throws -> DateComponents {
        DateComponents(year: 1990, month: 4, day: 2)
    }

    override class func isHealthDataAvailable() -> Bool { true }
}

/// What code under test sees: it holds an `HKHealthStore`, never the mock's type.
private func steps() -> HKQuantityType { HKQuantityType(.stepCount) }

private func aSample() -> HKQuantitySample {
    HKQuantitySample(type: steps(), quantity: HKQuantity(unit: .count(), doubleValue: 12),
                     start: Date(timeIntervalSince1970: 1_700_000_000), end: Date(timeIntervalSince1970: 1_700_000_060))
}

@Suite(.timeLimit(.minutes(10))) struct MockHealthStoreSubclassTests {
    @Test func completionStyleOverridesAreCalledThroughAnHKHealthStoreReference() async throws {
        let mock = CompletionMockHealthStore()
        let store: HKHealthStore = mock
        let query = HKSampleQuery(sampleType: steps(), predicate: nil, limit: 1, sortDescriptors: nil) { _, _, _ in }

        store.execute(query)
        store.stop(query)
        #expect(mock.executedQueries.count == 1 && mock.executedQueries.first === query)
        #expect(mock.stoppedQueries.count == 1 && mock.stoppedQueries.first === query)

        mock.statusToReturn = .sharingDenied
        #expect(store.authorizationStatus(for: steps()) == .sharingDenied)

        let granted = await withCheckedContinuation { continuation in
            store.requestAuthorization(toShare: [steps()], read: nil) { success, _ in continuation.resume(returning: success) }
        }
        #expect(granted)
        #expect(mock.requestedShareTypes == [steps()])

        let sample = aSample()
        let saved = await withCheckedContinuation { continuation in
            store.save(sample) { success, _ in continuation.resume(returning: success) }
        }
        #expect(saved)
        #expect(mock.savedObjects.count == 1 && mock.savedObjects.first === sample)

        let status = await withCheckedContinuation { continuation in
            store.getRequestStatusForAuthorization(toShare: [], read: [steps()]) { status, _ in continuation.resume(returning: status) }
        }
        #expect(status == .unnecessary)
    }

    @Test func asyncOverridesAreCalledThroughAnHKHealthStoreReference() async throws {
        let mock = AsyncMockHealthStore()
        let store: HKHealthStore = mock
        let sample = aSample()

        try await store.requestAuthorization(toShare: [steps()], read: [steps()])
        #expect(mock.authorizationRequests == 1)
        #expect(try await store.statusForAuthorizationRequest(toShare: [], read: [steps()]) == .shouldRequest)
        try await store.save([sample])
        try await store.delete(sample)
        #expect(mock.savedObjects.count == 1 && mock.deletedObjects.count == 1)
        try await store.enableBackgroundDelivery(for: steps(), frequency: .immediate)
        #expect(try await store.preferredUnits(for: [steps()]) == [steps(): .count()])
        #expect(try store.dateOfBirthComponents().year == 1990)
        let storeClass: HKHealthStore.Type = AsyncMockHealthStore.self
        #expect(storeClass.isHealthDataAvailable())
    }

    /// The completion-handler spelling runs the async one by dynamic dispatch (in Apple's SDK
    /// both are one Objective-C method), so a mock of the async forms serves callers of either.
    @Test func completionFormsReachAnAsyncOnlyMock() async throws {
        let mock = AsyncMockHealthStore()
        let store: HKHealthStore = mock
        let sample = aSample()

        let granted = await withCheckedContinuation { continuation in
            store.requestAuthorization(toShare: [steps()], read: nil) { success, _ in continuation.resume(returning: success) }
        }
        let saved = await withCheckedContinuation { continuation in
            store.save(sample) { success, _ in continuation.resume(returning: success) }
        }
        let status = await withCheckedContinuation { continuation in
            store.getRequestStatusForAuthorization(toShare: [], read: [steps()]) { status, _ in continuation.resume(returning: status) }
        }
        #expect(granted && saved && status == .shouldRequest)
        #expect(mock.authorizationRequests == 1)
        #expect(mock.savedObjects.count == 1 && mock.savedObjects.first === sample)
    }
}
