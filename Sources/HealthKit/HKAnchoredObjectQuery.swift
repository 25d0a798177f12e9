public import Foundation
import HealthWire
import Synchronization

/// The samples added and objects deleted since an anchor, as HealthKit's `HKAnchoredObjectQuery`.
/// The results handler gets the initial results and the anchor to continue from. With an
/// `updateHandler` set before `execute`, the query keeps running: each time something the app
/// may read changes, the update handler gets the changes and a new anchor, until `stop(_:)`.
///
/// `limit` counts samples and deleted objects together per delivery; a long-running query whose
/// initial results were cut by the limit receives the rest as updates right away. The predicate
/// filters added samples; deleted objects of the type are all reported (they carry no dates or
/// values to match). Permissions apply at every delivery: after the user revokes read access,
/// the next update holds only the app's own changes.
///
/// With `queryDescriptors` (iOS 15), the changes of several types as one feed: healthd merges
/// them in the order they happened, each type under the app's read permission for that type,
/// under one anchor (valid for the same set of types), with `limit` counted across all of them.
public final class HKAnchoredObjectQuery: HKQuery, @unchecked Sendable {
    public typealias ResultsHandler = @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?) -> Void

    public let anchor: HKQueryAnchor?
    public let limit: Int
    private let resultsHandler: ResultsHandler
    private let updates = Mutex<ResultsHandler?>(nil)
    private let spec: Result<AnchoredQuerySpec, HKError>

    /// Called for each change after the initial results; set it before `execute` to make the
    /// query long-running (setting it later has no effect on a running query, as in HealthKit).
    /// A plain closure where Apple's is `@Sendable`, so Apple-style assignments compile (see `AppHandler`).
    public var updateHandler: ((HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?) -> Void)? {
        get {
            guard let handler = updates.withLock({ $0 }) else { return nil }
            return handler
        }
        set {
            guard let newValue else { return updates.withLock { $0 = nil } }
            let box = AppHandler(function: newValue)
            let handler: ResultsHandler = { query, added, deleted, anchor, error in box.function(query, added, deleted, anchor, error) }
            updates.withLock { $0 = handler }
        }
    }

    /// - Parameters:
    ///   - anchor: from an earlier query of this type, or nil to start from the beginning.
    ///   - limit: the most samples plus deleted objects per delivery; `HKObjectQueryNoLimit` (0) for all.
    @preconcurrency
    public init(type: HKSampleType, predicate: NSPredicate?, anchor: HKQueryAnchor?, limit: Int,
                resultsHandler: @escaping ResultsHandler) {
        self.anchor = anchor
        self.limit = limit
        self.resultsHandler = resultsHandler
        spec = Result { () throws(HKError) in
            try Self.spec(type: type, predicate: predicate, anchor: anchor, limit: limit, longRunning: false)
        }
        super.init(objectType: type, predicate: predicate)
    }

    /// Samples added and objects deleted of any of the descriptors' types (each sample matching
    /// its descriptor's predicate) since `anchor`, as one feed in the order the changes happened.
    /// The anchor it returns continues this same set of types. developer.apple.com/documentation/
    /// healthkit/hkanchoredobjectquery/init(querydescriptors:anchor:limit:resultshandler:)
    ///
    /// - Parameters:
    ///   - limit: the most samples plus deleted objects per delivery, across all the types;
    ///     `HKObjectQueryNoLimit` (0) for all.
    @preconcurrency
    public init(queryDescriptors: [HKQueryDescriptor], anchor: HKQueryAnchor?, limit: Int,
                resultsHandler: @escaping ResultsHandler) {
        self.anchor = anchor
        self.limit = limit
        self.resultsHandler = resultsHandler
        spec = Result { () throws(HKError) in
            try Self.spec(descriptors: queryDescriptors.map { ($0.sampleType, $0.predicate) }, anchor: anchor, limit: limit,
                          longRunning: false)
        }
        super.init(objectType: queryDescriptors.count == 1 ? queryDescriptors.first?.sampleType : nil,
                   predicate: queryDescriptors.count == 1 ? queryDescriptors.first?.predicate : nil)
    }

    static func spec(type: HKSampleType, predicate: NSPredicate?, anchor: HKQueryAnchor?, limit: Int,
                     longRunning: Bool) throws(HKError) -> AnchoredQuerySpec {
        try spec(descriptors: [(type, predicate)], anchor: anchor, limit: limit, longRunning: longRunning)
    }

    /// The request for any number of (type, predicate) parts: the one place both initializers and
    /// the async descriptor check what the app asked before anything is sent.
    static func spec(descriptors: [(type: HKSampleType, predicate: NSPredicate?)], anchor: HKQueryAnchor?, limit: Int,
                     longRunning: Bool) throws(HKError) -> AnchoredQuerySpec {
        guard limit >= 0 else {
            throw HKError(.errorInvalidArgument, "limit must be HKObjectQueryNoLimit (0) or positive, got \(limit)")
        }
        guard !descriptors.isEmpty else {
            throw HKError(.errorInvalidArgument, "an anchored object query needs at least one query descriptor")
        }
        guard descriptors.count <= AnchoredQuerySpec.maxDescriptors else {
            throw HKError(.errorInvalidArgument,
                          "an anchored object query takes at most \(AnchoredQuerySpec.maxDescriptors) query descriptors, got \(descriptors.count)")
        }
        return AnchoredQuerySpec(
            descriptors: try descriptors.map { (descriptor) throws(HKError) in
                TypePredicateSpec(typeIdentifier: descriptor.type.identifier,
                                  predicate: try descriptor.predicate.map { (predicate) throws(HKError) in try SamplePredicate(translating: predicate) })
            },
            anchor: anchor?.bytes ?? [], limit: limit, longRunning: longRunning)
    }

    override func start(on connection: BrokerConnection) {
        let updateHandler = updates.withLock { $0 }
        let started = lifecycle.start { [self] in
            let delivered = Mutex(false)
            do throws(HKError) {
                var spec = try spec.get()
                spec.longRunning = updateHandler != nil
                try await connection.anchoredDeliveries(spec) { delivery in
                    let first = delivered.withLock { delivered in
                        defer { delivered = true }
                        return !delivered
                    }
                    let handler = first ? resultsHandler : updateHandler
                    handler?(self, delivery.samples, delivery.deletedObjects, delivery.anchor, nil)
                }
            } catch {
                // Once the initial results are out, a stopped query ends quietly; other
                // errors reach the update handler.
                if delivered.withLock({ $0 }) {
                    if error.code != .errorUserCanceled { updateHandler?(self, nil, nil, nil, error) }
                } else {
                    resultsHandler(self, nil, nil, nil, error)
                }
            }
        }
        if !started {
            Task { [self] in
                resultsHandler(self, nil, nil, nil, HKError(.errorInvalidArgument,
                                                            "this HKAnchoredObjectQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}
