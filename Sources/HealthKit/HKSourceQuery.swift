public import Foundation
import HealthWire

/// The apps that saved samples of a type matching a predicate, as HealthKit's `HKSourceQuery`.
/// Only samples the app may read count: without read permission, the answer is the app itself
/// if it saved matching samples, and empty otherwise.
public final class HKSourceQuery: HKQuery, @unchecked Sendable {
    public typealias CompletionHandler = @Sendable (HKSourceQuery, Set<HKSource>?, (any Error)?) -> Void

    private let completionHandler: CompletionHandler
    private let spec: Result<TypePredicateSpec, HKError>

    @preconcurrency
    public init(sampleType: HKSampleType, samplePredicate: NSPredicate?, completionHandler: @escaping CompletionHandler) {
        self.completionHandler = completionHandler
        spec = Result { () throws(HKError) in
            TypePredicateSpec(typeIdentifier: sampleType.identifier,
                              predicate: try samplePredicate.map { (predicate) throws(HKError) in try SamplePredicate(translating: predicate) })
        }
        super.init(objectType: sampleType, predicate: samplePredicate)
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                completionHandler(self, try await connection.sources(try spec.get()), nil)
            } catch {
                completionHandler(self, nil, error)
            }
        }
        if !started {
            Task { [self] in
                completionHandler(self, nil, HKError(.errorInvalidArgument,
                                                     "this HKSourceQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}
