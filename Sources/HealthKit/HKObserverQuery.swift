public import Foundation
import HealthWire

/// The completion handler an observer query's update handler receives, as HealthKit names it.
public typealias HKObserverQueryCompletionHandler = @Sendable () -> Void

/// "Something of this type changed", as HealthKit's `HKObserverQuery`: the update handler is
/// called once when the query starts, then each time a change the app may read happens to the
/// type (a sample matching the predicate added, or an object deleted), until `stop(_:)`.
///
/// Call the handler's completion handler when done with an update: healthd holds back the next
/// update until then (changes meanwhile are folded into one update). An app that never calls it
/// gets no further updates.
public final class HKObserverQuery: HKQuery, @unchecked Sendable {
    public typealias CompletionHandler = HKObserverQueryCompletionHandler
    public typealias UpdateHandler = @Sendable (HKObserverQuery, @escaping CompletionHandler, (any Error)?) -> Void

    private let updateHandler: UpdateHandler
    private let spec: Result<TypePredicateSpec, HKError>

    @preconcurrency
    public init(sampleType: HKSampleType, predicate: NSPredicate?, updateHandler: @escaping UpdateHandler) {
        self.updateHandler = updateHandler
        spec = Result { () throws(HKError) in
            TypePredicateSpec(typeIdentifier: sampleType.identifier,
                              predicate: try predicate.map { (predicate) throws(HKError) in try SamplePredicate(translating: predicate) })
        }
        super.init(objectType: sampleType, predicate: predicate)
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                try await connection.observerUpdates(try spec.get()) { _ in
                    await withCheckedContinuation { (acknowledged: CheckedContinuation<Void, Never>) in
                        let completion = OnceCompletion { acknowledged.resume() }
                        updateHandler(self, completion.call, nil)
                    }
                }
            } catch {
                // A stopped query ends quietly, as in HealthKit.
                if error.code != .errorUserCanceled { updateHandler(self, {}, error) }
            }
        }
        if !started {
            Task { [self] in
                updateHandler(self, {}, HKError(.errorInvalidArgument,
                                                "this HKObserverQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}
