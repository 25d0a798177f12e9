import Foundation
import HealthIPC
import HealthWire
@testable import HealthKit
import Synchronization
import Testing

/// Anchored, observer and source queries against a fake broker: how deliveries are assembled,
/// which handler gets them, and when acknowledgements go out.
@Suite(.timeLimit(.minutes(10))) struct ChangeFeedQueryTests {
    let sleep = HKCategoryType(.sleepAnalysis)

    func record(_ value: Int) -> SampleRecord {
        let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(value) * 60)
        return SampleRecord(uuid: UUID(), typeIdentifier: sleep.identifier, startDate: start, endDate: start.addingTimeInterval(60),
                            value: .category(value), source: SourceRecord(bundleIdentifier: "org.example.sleep", name: "Sleep"))
    }

    @Test func anchoredDeliveriesSpanningSeveralMessagesReachTheRightHandlers() async throws {
        let requested = Mutex<AnchoredQuerySpec?>(nil)
        let replaced = DeletedObjectRecord(uuid: UUID(), syncIdentity: SyncIdentity(identifier: "night", version: 1))
        let broker = try FakeBroker { call in
            requested.withLock { $0 = try? AnchoredQuerySpec(wire: call.payload) }
            let messages = [
                AnchoredQueryBatch(samples: [record(0)], deletedObjects: [], endOfDelivery: false),
                AnchoredQueryBatch(samples: [record(1)], deletedObjects: [replaced], endOfDelivery: true, anchor: [1, 2]),
                AnchoredQueryBatch(samples: [record(2)], deletedObjects: [], endOfDelivery: true, anchor: [3]),
            ]
            for message in messages { try? await call.responder.send(message.wireBytes()) }
            call.responder.finish()
        }
        defer { broker.close() }
        let (deliveries, sink) = AsyncStream.makeStream(of: (String, [Int], [HKDeletedObject], HKQueryAnchor?).self)
        let query = HKAnchoredObjectQuery(type: sleep, predicate: nil, anchor: HKQueryAnchor(data: Data([9])), limit: 5) { _, added, deleted, anchor, _ in
            sink.yield(("results", (added ?? []).map { ($0 as! HKCategorySample).value }, deleted ?? [], anchor))
        }
        query.updateHandler = { _, added, deleted, anchor, _ in
            sink.yield(("update", (added ?? []).map { ($0 as! HKCategorySample).value }, deleted ?? [], anchor))
        }
        broker.store.execute(query)
        var iterator = deliveries.makeAsyncIterator()
        let initial = try #require(await iterator.next())
        #expect(initial.0 == "results")
        #expect(initial.1 == [0, 1])
        #expect(initial.2.map(\.uuid) == [replaced.uuid])
        #expect(initial.2.first?.metadata?[HKMetadataKeySyncIdentifier] as? String == "night")
        #expect(initial.3 == HKQueryAnchor(data: Data([1, 2])))
        let update = try #require(await iterator.next())
        #expect(update.0 == "update")
        #expect(update.1 == [2])
        #expect(update.3 == HKQueryAnchor(data: Data([3])))
        #expect(requested.withLock { $0 } == AnchoredQuerySpec(typeIdentifier: sleep.identifier, anchor: [9], limit: 5, longRunning: true))
    }

    /// Apple: "To query for multiple types of data, provide a sample predicate for each type."
    /// developer.apple.com/documentation/healthkit/hkanchoredobjectquerydescriptor/init(predicates:anchor:limit:)
    @Test func theDescriptorSendsOnePartPerPredicate() async throws {
        let mindful = HKCategoryType(.mindfulSession)
        let descriptor = HKAnchoredObjectQueryDescriptor(
            predicates: [.categorySample(type: sleep), .categorySample(type: mindful)], anchor: nil, limit: 4)
        #expect(try descriptor.spec(longRunning: false) == AnchoredQuerySpec(
            descriptors: [TypePredicateSpec(typeIdentifier: sleep.identifier), TypePredicateSpec(typeIdentifier: mindful.identifier)],
            limit: 4))
        let single = HKAnchoredObjectQueryDescriptor(predicates: [.categorySample(type: sleep)], anchor: nil, limit: 3)
        #expect(try single.spec(longRunning: true) == AnchoredQuerySpec(typeIdentifier: sleep.identifier, limit: 3, longRunning: true))
        let none = HKAnchoredObjectQueryDescriptor<HKCategorySample>(predicates: [], anchor: nil)
        #expect(throws: HKError.self) { _ = try none.spec(longRunning: false) }
    }

    /// Apple's rule (developer.apple.com/documentation/healthkit/hkobserverquerycompletionhandler):
    /// the completion handler "tells HealthKit that you have successfully received the background
    /// data"; it does not gate the next update. So the SDK acknowledges `handled` as each update
    /// handler returns — the next update comes without any completion handler called — and
    /// `completed` separately, once, when the app calls it; called before the handler returned,
    /// the two go as one `handledAndCompleted`. Until session 15 the SDK waited for the completion
    /// handler before it acknowledged, and update 2 never reached the app before `first()`.
    @Test func anObserverAcknowledgesHandlingAndCompletionApart() async throws {
        let acknowledged = Mutex<[ObserverAcknowledgement]>([])
        let broker = try FakeBroker { call in
            switch call.method {
            case HealthStoreMethod.observeChanges.rawValue:
                for delivery in UInt64(1)...3 {
                    try? await call.responder.send(ObserverDelivery(observerID: 77, delivery: delivery).wireBytes())
                }
                call.responder.finish()
            case HealthStoreMethod.acknowledgeObserverUpdate.rawValue:
                if let ack = try? ObserverAcknowledgement(wire: call.payload) { acknowledged.withLock { $0.append(ack) } }
                call.responder.respond(EmptyMessage().wireBytes())
            default:
                call.responder.fail(RPCStatus(.unimplemented), streaming: false)
            }
        }
        defer { broker.close() }
        let (completions, sink) = AsyncStream.makeStream(of: HKObserverQuery.CompletionHandler.self)
        let updates = Mutex(0)
        let query = HKObserverQuery(sampleType: sleep, predicate: nil) { _, completion, error in
            guard error == nil else { return }
            let number = updates.withLock { count in
                count += 1
                return count
            }
            // The third update's completion handler is called inside its handler, as most apps do.
            if number == 3 { completion() } else { sink.yield(completion) }
        }
        broker.store.execute(query)
        var iterator = completions.makeAsyncIterator()
        let first = try #require(await iterator.next())
        let second = try #require(await iterator.next())  // arrives with the first still not called
        func ack(_ delivery: UInt64, _ step: ObserverAcknowledgement.Step) -> ObserverAcknowledgement {
            ObserverAcknowledgement(observerID: 77, delivery: delivery, step: step)
        }
        let handled = [ack(1, .handled), ack(2, .handled), ack(3, .handledAndCompleted)]
        #expect(try await eventually { acknowledged.withLock { $0 } == handled })
        first()
        first()  // a second call changes nothing
        #expect(try await eventually { acknowledged.withLock { $0 } == handled + [ack(1, .completed)] })
        second()
        #expect(try await eventually { acknowledged.withLock { $0 } == handled + [ack(1, .completed), ack(2, .completed)] })
        try await Task.sleep(for: .milliseconds(100))
        #expect(acknowledged.withLock { $0.count } == 5, "one acknowledgement per step")
        broker.store.stop(query)
    }

    @Test func aSourceQueryReturnsTheBrokersSources() async throws {
        let broker = try FakeBroker { call in
            call.responder.respond(SourceList([SourceRecord(bundleIdentifier: "org.example.a", name: "A")]).wireBytes())
        }
        defer { broker.close() }
        let sources: Set<HKSource> = try await withCheckedThrowingContinuation { continuation in
            broker.store.execute(HKSourceQuery(sampleType: sleep, samplePredicate: nil) { _, sources, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: sources ?? []) }
            })
        }
        #expect(sources == [HKSource(name: "A", bundleIdentifier: "org.example.a")])
    }

    @Test func anAnchorPersistsThroughCodable() throws {
        let anchor = HKQueryAnchor(data: Data((0..<46).map { UInt8($0) }))
        let decoded = try JSONDecoder().decode(HKQueryAnchor.self, from: JSONEncoder().encode(anchor))
        #expect(decoded == anchor)
        #expect(HKQueryAnchor(data: anchor.data) == anchor)
        #expect(anchor.description == "HKQueryAnchor(46 bytes)")
    }
}
