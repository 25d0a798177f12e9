import Foundation
import Testing
import HealthKit

/// Code written for Apple's SDK in Swift 6 mode captures non-Sendable state (a view model's
/// `self`) in HealthKit's handlers: Apple's Objective-C–imported API takes them without a
/// Sendable error. The SDK's closure-taking APIs are `@preconcurrency`, so this file — which
/// does the same in Swift 6 language mode — compiles (with warnings at most). Removing the
/// attribute from any of them turns this file into a build error. Issue 15, item 9.
@Suite(.timeLimit(.minutes(10))) struct AppleStyleClosureTests {
    /// Not Sendable, like a typical view model.
    final class ViewModel {
        var samples: [HKSample] = []
        var total: Double = 0
        var authorized = false
        var updates = 0
        let store = HKHealthStore()

        func makeQueries() -> [HKQuery] {
            let steps = HKQuantityType(.stepCount)
            let sampleQuery = HKSampleQuery(sampleType: steps, predicate: nil, limit: HKObjectQueryNoLimit,
                                            sortDescriptors: nil) { _, samples, _ in self.samples = samples ?? [] }
            let statistics = HKStatisticsQuery(quantityType: steps, quantitySamplePredicate: nil,
                                               options: .cumulativeSum) { _, result, _ in
                self.total = result?.sumQuantity()?.doubleValue(for: .count()) ?? 0
            }
            let observer = HKObserverQuery(sampleType: steps, predicate: nil) { _, completion, _ in
                self.updates += 1
                completion()
            }
            let anchored = HKAnchoredObjectQuery(type: steps, predicate: nil, anchor: nil, limit: HKObjectQueryNoLimit) { _, added, _, _, _ in
                self.samples = added ?? []
            }
            anchored.updateHandler = { _, added, _, _, _ in self.samples += added ?? [] }
            let collection = HKStatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: nil, options: .cumulativeSum,
                                                         anchorDate: Date(timeIntervalSince1970: 0),
                                                         intervalComponents: DateComponents(day: 1))
            collection.initialResultsHandler = { _, result, _ in self.total = Double(result?.statistics().count ?? 0) }
            collection.statisticsUpdateHandler = { _, _, _, _ in self.updates += 1 }
            return [sampleQuery, statistics, observer, anchored, collection]
        }

        func requestAccess() {
            store.requestAuthorization(toShare: [], read: [HKQuantityType(.stepCount)]) { success, _ in
                self.authorized = success
            }
        }
    }

    @Test func handlersCapturingNonSendableStateCompileAsWithApplesSDK() {
        let model = ViewModel()
        #expect(model.makeQueries().count == 5)
        let completion: HKObserverQueryCompletionHandler = {}
        completion()
    }
}
