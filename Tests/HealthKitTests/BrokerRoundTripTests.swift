import Foundation
import HealthIPC
import HealthWire
@testable import HealthKit
import Synchronization
import Testing

/// The SDK against a fake broker over a real socket: what goes on the wire and what comes back.
@Suite(.timeLimit(.minutes(10))) struct BrokerRoundTripTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)

    func steps(_ count: Double, minute: Int) -> HKQuantitySample {
        HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: count),
                         start: start.addingTimeInterval(Double(minute) * 60), end: start.addingTimeInterval(Double(minute) * 60 + 59))
    }

    func record(minute: Int) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: "HKQuantityTypeIdentifierStepCount",
                     startDate: start.addingTimeInterval(Double(minute) * 60), endDate: start.addingTimeInterval(Double(minute) * 60 + 59),
                     value: .quantity(Double(minute), unit: "count"),
                     source: SourceRecord(bundleIdentifier: "org.example.walk", name: "Walk"))
    }

    /// Runs `query` and waits for its one handler call.
    func outcome(of query: (@escaping HKSampleQuery.ResultsHandler) -> HKSampleQuery, on store: HKHealthStore,
                 whileRunning: (HKSampleQuery) async throws -> Void = { _ in }) async throws -> ([HKSample]?, (any Error)?) {
        let (outcomes, sink) = AsyncStream.makeStream(of: ([HKSample]?, (any Error)?).self)
        let built = query { _, samples, error in
            sink.yield((samples, error))
            sink.finish()
        }
        store.execute(built)
        try await whileRunning(built)
        var iterator = outcomes.makeAsyncIterator()
        return try #require(await iterator.next())
    }

    @Test func saveSendsTheRecordsAndAdoptsTheBrokersUUIDs() async throws {
        let sent = Mutex<[SampleRecord]>([])
        let assigned = [UUID(), UUID()]
        let broker = try FakeBroker { call in
            guard call.method == HealthStoreMethod.save.rawValue, let list = try? SampleList(wire: call.payload) else {
                return call.responder.fail(RPCStatus(.unimplemented), streaming: false)
            }
            sent.withLock { $0 = list.samples }
            call.responder.respond(SavedUUIDs(assigned).wireBytes())
        }
        defer { broker.close() }
        let samples = [steps(120, minute: 0), steps(80, minute: 1)]
        try await broker.store.save(samples)
        #expect(samples.map(\.uuid) == assigned)
        #expect(sent.withLock { $0.map(\.value) } == [.quantity(120, unit: "count"), .quantity(80, unit: "count")])
        #expect(sent.withLock { $0.map(\.startDate) } == samples.map(\.startDate))
    }

    @Test func invalidSampleFailsBeforeReachingTheBroker() async throws {
        let calls = Mutex(0)
        let broker = try FakeBroker { call in
            calls.withLock { $0 += 1 }
            call.responder.respond(SavedUUIDs([UUID()]).wireBytes())
        }
        defer { broker.close() }
        let wrongUnit = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .gram(), doubleValue: 1),
                                         start: start, end: start)
        await #expect(throws: HKError.self) { try await broker.store.save(wrongUnit) }
        #expect(calls.withLock { $0 } == 0)
    }

    /// HealthKit fails `delete([])` with `errorInvalidArgument` rather than succeeding
    /// (issue 15, item 6); the SDK answers without a call, as the broker would.
    @Test func deletingAnEmptyListIsAnInvalidArgument() async throws {
        let calls = Mutex(0)
        let broker = try FakeBroker { call in
            calls.withLock { $0 += 1 }
            call.responder.respond(DeletedCount(0).wireBytes())
        }
        defer { broker.close() }
        await #expect { try await broker.store.delete([HKObject]()) } throws: { error in
            (error as? HKError)?.code == .errorInvalidArgument
        }
        #expect(calls.withLock { $0 } == 0)
    }

    @Test func brokerRefusalBecomesTheMatchingHKErrorInBothForms() async throws {
        let broker = try FakeBroker { call in
            call.responder.fail(RPCStatus(HKError(.errorAuthorizationDenied, "not allowed to share step count")), streaming: false)
        }
        defer { broker.close() }
        await #expect(throws: HKError(.errorAuthorizationDenied, "not allowed to share step count")) {
            try await broker.store.save(steps(1, minute: 0))
        }
        let (success, error) = await withCheckedContinuation { continuation in
            broker.store.save(steps(1, minute: 0)) { continuation.resume(returning: ($0, $1)) }
        }
        #expect(!success && (error as? HKError)?.code == .errorAuthorizationDenied)
    }

    @Test func queryCollectsEveryStreamedBatchInOrder() async throws {
        let received = Mutex<SampleQuerySpec?>(nil)
        let broker = try FakeBroker { call in
            received.withLock { $0 = try? SampleQuerySpec(wire: call.payload) }
            for batch in 0..<3 {
                try? await call.responder.send(SampleList((0..<4).map { record(minute: batch * 4 + $0) }).wireBytes())
            }
            call.responder.finish()
        }
        defer { broker.close() }
        let range = HKQuery.predicateForSamples(withStart: start, end: nil, options: .strictStartDate)
        let (samples, error) = try await outcome(of: { handler in
            HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: range, limit: HKObjectQueryNoLimit,
                          sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)],
                          resultsHandler: handler)
        }, on: broker.store)
        #expect(error == nil)
        let values = (samples ?? []).compactMap { ($0 as? HKQuantitySample)?.quantity.doubleValue(for: .count()) }
        #expect(values == (0..<12).map(Double.init))
        #expect(samples?.first?.sourceRevision.source.bundleIdentifier == "org.example.walk")
        #expect(received.withLock { $0 } == SampleQuerySpec(
            typeIdentifier: "HKQuantityTypeIdentifierStepCount",
            predicate: .dateRange(start: start, end: nil, strictStart: true, strictEnd: false),
            sort: [SampleSort(.startDate, ascending: true)], limit: 0))
    }

    @Test func queryStreamFailureReachesTheHandler() async throws {
        let broker = try FakeBroker { call in
            try? await call.responder.send(SampleList([record(minute: 0)]).wireBytes())
            call.responder.fail(RPCStatus(HKError(.errorDatabaseInaccessible, "the store is locked")), streaming: true)
        }
        defer { broker.close() }
        let (samples, error) = try await outcome(of: { handler in
            HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 0, sortDescriptors: nil,
                          resultsHandler: handler)
        }, on: broker.store)
        #expect(samples == nil)
        #expect((error as? HKError)?.code == .errorDatabaseInaccessible)
    }

    @Test func stopCancelsTheBrokersStreamAndTheHandlerSeesUserCanceled() async throws {
        let firstBatchSent = Mutex(false)
        let brokerSawCancel = Mutex(false)
        let broker = try FakeBroker { call in
            try? await call.responder.send(SampleList([record(minute: 0)]).wireBytes())
            firstBatchSent.withLock { $0 = true }
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            brokerSawCancel.withLock { $0 = true }
        }
        defer { broker.close() }
        let (samples, error) = try await outcome(of: { handler in
            HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 0, sortDescriptors: nil,
                          resultsHandler: handler)
        }, on: broker.store, whileRunning: { (query) async throws in
            #expect(try await eventually { firstBatchSent.withLock { $0 } })
            broker.store.stop(query)
        })
        #expect(samples == nil)
        #expect((error as? HKError)?.code == .errorUserCanceled)
        #expect(try await eventually { brokerSawCancel.withLock { $0 } })
    }

    @Test func unsupportedPredicateFailsTheQueryWithoutACall() async throws {
        let calls = Mutex(0)
        let broker = try FakeBroker { call in
            calls.withLock { $0 += 1 }
            call.responder.finish()
        }
        defer { broker.close() }
        let (_, error) = try await outcome(of: { handler in
            HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: NSPredicate(value: true), limit: 0,
                          sortDescriptors: nil, resultsHandler: handler)
        }, on: broker.store)
        #expect((error as? HKError)?.code == .errorInvalidArgument)
        #expect(calls.withLock { $0 } == 0)
    }

    @Test func authorizationCallsSendSortedTypesAndDecodeStatuses() async throws {
        let requests = Mutex<[String: AuthorizationTypes]>([:])
        let broker = try FakeBroker { call in
            switch HealthStoreMethod(rawValue: call.method) {
            case .requestAuthorization?:
                requests.withLock { $0[call.method] = try? AuthorizationTypes(wire: call.payload) }
                call.responder.respond(EmptyMessage().wireBytes())
            case .getRequestStatus?:
                call.responder.respond(StatusValue(HKAuthorizationRequestStatus.unnecessary.rawValue).wireBytes())
            default:
                call.responder.fail(RPCStatus(.unimplemented), streaming: false)
            }
        }
        defer { broker.close() }
        let share: Set<HKSampleType> = [HKQuantityType(.stepCount), HKCategoryType(.sleepAnalysis)]
        try await broker.store.requestAuthorization(toShare: share, read: [HKQuantityType(.heartRate)])
        #expect(requests.withLock { $0[HealthStoreMethod.requestAuthorization.rawValue] } == AuthorizationTypes(
            share: ["HKCategoryTypeIdentifierSleepAnalysis", "HKQuantityTypeIdentifierStepCount"],
            read: ["HKQuantityTypeIdentifierHeartRate"]))
        #expect(try await broker.store.getRequestStatusForAuthorization(toShare: share, read: []) == .unnecessary)
    }

    @Test func inheritedDescriptorFromTheEnvironmentIsUsed() async throws {
        let (clientEnd, serverEnd) = try UnixSocket.pair()
        let broker = try FakeBroker(serverEnd: serverEnd, connection: {
            BrokerConnection(environment: [LaunchEnvironment.socketDescriptorVariable: "\(clientEnd)"])
        }) { call in
            call.responder.respond(StatusValue(HKAuthorizationStatus.sharingDenied.rawValue).wireBytes())
        }
        defer { broker.close() }
        #expect(broker.store.authorizationStatus(for: HKQuantityType(.stepCount)) == .sharingDenied)
    }
}
