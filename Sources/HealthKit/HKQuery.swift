public import Foundation

/// The base of all queries, as HealthKit's `HKQuery`: what is asked about and the predicate.
/// Run one with `HKHealthStore.execute(_:)`, stop it with `HKHealthStore.stop(_:)`.
///
/// `@unchecked Sendable`: the stored properties are immutable (an `NSPredicate` is not marked
/// Sendable, but these are never mutated after creation) and the run state is locked.
///
/// An `NSObject`, as Apple's (`class HKQuery : NSObject`), so `isEqual(_:)` is identity and a
/// query can be kept where Foundation expects an object; queries are not archivable, in Apple's
/// HealthKit either.
public class HKQuery: NSObject, @unchecked Sendable {
    public let objectType: HKObjectType?
    public var sampleType: HKSampleType? { objectType as? HKSampleType }
    public let predicate: NSPredicate?

    let lifecycle = QueryLifecycle()

    init(objectType: HKObjectType?, predicate: NSPredicate?) {
        self.objectType = objectType
        self.predicate = predicate
        super.init()
    }

    /// Starts the query's work on `connection`. Each concrete query overrides it; the SDK
    /// defines every subclass (the initializers are internal), so the base is never run.
    func start(on connection: BrokerConnection) {
        preconditionFailure("\(type(of: self)) does not override HKQuery.start(on:)")
    }
}
