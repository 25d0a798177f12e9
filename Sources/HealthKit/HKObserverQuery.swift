public import Foundation
import HealthWire

/// The completion handler an observer query's update handler receives, as HealthKit names it.
public typealias HKObserverQueryCompletionHandler = @Sendable () -> Void

/// "Something of this type changed", as HealthKit's `HKObserverQuery`: the update handler is
/// called once when the query starts, then each time a change the app may read happens to the
/// type (a sample matching the predicate added, or an object deleted), until `stop(_:)`.
///
/// Call the handler's completion handler when done with an update, as HealthKit asks: it tells
/// background delivery the app has the update (`enableBackgroundDelivery`), and an app that
/// does not call it is launched again for the change. It does not hold back later updates: the
/// update handler is called for each change whether or not earlier completion handlers were
/// called (changes that happen while the handler runs are folded into one update).
public final class HKObserverQuery: HKQuery, @unchecked Sendable {
    public typealias CompletionHandler = HKObserverQueryCompletionHandler
    public typealias UpdateHandler = @Sendable (HKObserverQuery, @escaping CompletionHandler, (any Error)?) -> Void

    /// The handler of a query over several descriptors: the types whose change it reports.
    public typealias DescriptorsUpdateHandler =
        @Sendable (HKObserverQuery, Set<HKSampleType>?, @escaping CompletionHandler, (any Error)?) -> Void

    /// What the query reports to, in the shape its initializer was given.
    private let handler: @Sendable (HKObserverQuery, HKSampleType?, @escaping CompletionHandler, (any Error)?) -> Void
    private let specs: Result<[(HKSampleType, TypePredicateSpec)], HKError>

    @preconcurrency
    public init(sampleType: HKSampleType, predicate: NSPredicate?, updateHandler: @escaping UpdateHandler) {
        handler = { query, _, completion, error in updateHandler(query, completion, error) }
        specs = Self.specs([HKQueryDescriptor(sampleType: sampleType, predicate: predicate)])
        super.init(objectType: sampleType, predicate: predicate)
    }

    /// HealthKit's query over several types (iOS 15): one observation per type of the
    /// descriptors' union (`DescriptorUnion`: descriptors of one type observe any of their
    /// predicates, so one change is reported once), each update reporting the type that changed.
    /// Each type's first update arrives when the query starts, as a single-type query's does;
    /// each update's completion handler speaks for that type to background delivery. An empty list fails the query with
    /// `errorInvalidArgument` (HealthKit raises an exception).
    @preconcurrency
    public init(queryDescriptors: [HKQueryDescriptor], updateHandler: @escaping DescriptorsUpdateHandler) {
        handler = { query, type, completion, error in updateHandler(query, type.map { [$0] }, completion, error) }
        specs = queryDescriptors.isEmpty
            ? .failure(HKError(.errorInvalidArgument, "an observer query needs at least one query descriptor"))
            : Self.specs(queryDescriptors)
        super.init(objectType: queryDescriptors.count == 1 ? queryDescriptors.first?.sampleType : nil,
                   predicate: queryDescriptors.count == 1 ? queryDescriptors.first?.predicate : nil)
    }

    private static func specs(_ descriptors: [HKQueryDescriptor]) -> Result<[(HKSampleType, TypePredicateSpec)], HKError> {
        Result { () throws(HKError) in
            var types: [String: HKSampleType] = [:]
            let parts = try descriptors.map { (descriptor) throws(HKError) in
                types[descriptor.sampleType.identifier] = types[descriptor.sampleType.identifier] ?? descriptor.sampleType
                return DescriptorUnion.Part(typeIdentifier: descriptor.sampleType.identifier,
                                            predicate: try descriptor.predicate.map { (predicate) throws(HKError) in try SamplePredicate(translating: predicate) })
            }
            return DescriptorUnion.parts(parts).compactMap { part in
                types[part.typeIdentifier].map { ($0, TypePredicateSpec(typeIdentifier: part.typeIdentifier, predicate: part.predicate)) }
            }
        }
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                let specs = try specs.get()
                // One stream per descriptor; the first failure ends them all, reported once.
                let failure: HKError? = await withTaskGroup(of: HKError?.self) { group in
                    for (type, spec) in specs {
                        group.addTask { [self] in
                            do throws(HKError) {
                                try await observe(type, spec, on: connection)
                                return nil
                            } catch {
                                return error
                            }
                        }
                    }
                    for await error in group {
                        if let error {
                            group.cancelAll()
                            return error
                        }
                    }
                    return nil
                }
                if let failure { throw failure }
            } catch {
                // A stopped query ends quietly, as in HealthKit.
                if error.code != .errorUserCanceled { handler(self, nil, {}, error) }
            }
        }
        if !started {
            Task { [self] in
                handler(self, nil, {}, HKError(.errorInvalidArgument,
                                               "this HKObserverQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }

    private func observe(_ type: HKSampleType, _ spec: TypePredicateSpec, on connection: BrokerConnection) async throws(HKError) {
        try await connection.observerUpdates(spec) { delivery in
            let completion = ObserverUpdateCompletion { connection.acknowledgeCompletion(of: delivery) }
            handler(self, type, completion.call, nil)
            return completion.handlerReturned()
        }
    }
}
