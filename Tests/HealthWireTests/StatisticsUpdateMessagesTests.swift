import HealthModel
import HealthWire
import Testing

/// The long-running collection's delivery messages: they round-trip, a change is split into
/// messages of bounded size with only the last marked, and oversized messages are refused.
@Suite(.timeLimit(.minutes(10))) struct StatisticsUpdateMessagesTests {
    func interval(_ index: Int64) -> StatisticsResult {
        StatisticsResult(span: TimeSpan(start: index * 60_000_000, end: (index + 1) * 60_000_000),
                         merged: StatisticsValues(sum: Double(index)))
    }

    @Test func aDeliveryRoundTrips() throws {
        let delivery = StatisticsCollectionDelivery(changed: [interval(1), interval(4)], emptiedStarts: [0, -60_000_000],
                                                    endOfDelivery: true)
        #expect(try StatisticsCollectionDelivery(wire: delivery.wireBytes()) == delivery)
        let empty = StatisticsCollectionDelivery(changed: [], emptiedStarts: [], endOfDelivery: false)
        #expect(try StatisticsCollectionDelivery(wire: empty.wireBytes()) == empty)
    }

    @Test func anEmptyChangeIsOneMarkedMessage() {
        let messages = StatisticsCollectionDelivery.messages(of: StatisticsCollectionChange(changed: [], emptied: []))
        #expect(messages == [StatisticsCollectionDelivery(changed: [], emptiedStarts: [], endOfDelivery: true)])
    }

    @Test func aLargeChangeIsSplitAndOnlyTheLastMessageIsMarked() {
        let size = StatisticsCollectionDelivery.maxEntriesPerMessage
        let changed = (0..<Int64(size * 2 + 1)).map(interval)
        let emptied = (0..<Int64(size + 3)).map { -$0 }
        let messages = StatisticsCollectionDelivery.messages(of: StatisticsCollectionChange(changed: changed, emptied: emptied))
        #expect(messages.map(\.changed.count) == [size, size, 1])
        #expect(messages.map(\.emptiedStarts.count) == [size, 3, 0])
        #expect(messages.map(\.endOfDelivery) == [false, false, true])
        #expect(messages.flatMap(\.changed) == changed)
        #expect(messages.flatMap(\.emptiedStarts) == emptied)
    }

    @Test func aMessageWithTooManyIntervalsIsRefused() {
        let oversized = StatisticsCollectionDelivery(
            changed: [], emptiedStarts: Array(repeating: 0, count: StatisticsCollectionDelivery.maxEntriesPerMessage + 1),
            endOfDelivery: true)
        #expect(throws: (any Error).self) { try StatisticsCollectionDelivery(wire: oversized.wireBytes()) }
    }
}
