import Foundation
import HealthIPC
import HealthWire
@testable import HealthKit
import Testing

@Suite(.timeLimit(.minutes(10))) struct QueryLifecycleTests {
    @Test func aQueryRunsOnlyOnce() async throws {
        let broker = try FakeBroker { call in call.responder.finish() }
        defer { broker.close() }
        let (outcomes, sink) = AsyncStream.makeStream(of: (any Error)?.self)
        let query = HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 0, sortDescriptors: nil) { _, _, error in
            sink.yield(error)
        }
        broker.store.execute(query)
        var iterator = outcomes.makeAsyncIterator()
        #expect(try #require(await iterator.next()) == nil)
        broker.store.execute(query)
        let second = try #require(await iterator.next())
        #expect((second as? HKError)?.code == .errorInvalidArgument)
    }
}
