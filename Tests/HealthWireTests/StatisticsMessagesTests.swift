import COpenHealthProto
import Foundation
import HealthModel
import Testing
@testable import HealthWire

@Suite(.timeLimit(.minutes(10))) struct StatisticsMessagesTests {
    let steps = HKQuantityTypeIdentifier.stepCount.rawValue

    @Test func requestsRoundTrip() throws {
        let query = StatisticsQuerySpec(
            typeIdentifier: steps,
            predicate: .and([.dateRange(start: Date(microsecondsSince1970: 1_000_000), end: nil, strictStart: true, strictEnd: false),
                             .sources(["org.a"])]),
            options: [.cumulativeSum, .separateBySource, .duration])
        #expect(try StatisticsQuerySpec(wire: query.wireBytes()) == query)
        let collection = StatisticsCollectionSpec(statistics: query, anchor: Date(microsecondsSince1970: 1_767_222_000_000_000),
                                                  interval: StatisticsInterval(minutes: 30, hours: 1, days: 2, weeks: 3, months: 4),
                                                  timeZoneIdentifier: "Europe/Berlin")
        #expect(try StatisticsCollectionSpec(wire: collection.wireBytes()) == collection)
    }

    @Test func resultsKeepWhichValuesArePresent() throws {
        let result = StatisticsResult(
            span: TimeSpan(start: 0, end: 86_400_000_000),
            merged: StatisticsValues(sum: 0, mostRecent: .init(value: 12, span: TimeSpan(start: 5, end: 9)), duration: 60),
            bySource: [SourceStatistics(source: SourceRecord(bundleIdentifier: "org.a", name: "A"), values: StatisticsValues(average: 70, minimum: 60, maximum: 80)),
                       SourceStatistics(source: SourceRecord(bundleIdentifier: "org.b", name: "B"), values: StatisticsValues())])
        #expect(try StatisticsResult(wire: result.wireBytes()) == result)
        // A zero sum is present; absent values stay absent.
        #expect(try StatisticsResult(wire: result.wireBytes()).merged.average == nil)
        let batch = StatisticsBatch([result, StatisticsResult(span: TimeSpan(start: 7, end: 7), merged: StatisticsValues())])
        #expect(try StatisticsBatch(wire: batch.wireBytes()) == batch)
    }

    @Test func anIntervalEndingBeforeItStartsIsRefusedNotTrappedOn() {
        var wire = Openhealth__V1__Statistics.initialized()
        wire.start_us = 10
        wire.end_us = 5
        let bytes = ProtobufCodec.encode(wire)
        #expect(throws: WireDecodeError.invalidField("a statistics interval ends before it starts")) {
            try StatisticsResult(wire: bytes)
        }
    }

    @Test func sourcePriorityMessagesRoundTrip() throws {
        let list = SourceEntryList([SourceEntry(appID: "org.a", name: "A", installed: true, sampleCount: 3, orderedByUser: true),
                               SourceEntry(appID: "org.b", name: "B", installed: false, sampleCount: 0, orderedByUser: false)])
        #expect(try SourceEntryList(wire: list.wireBytes()) == list)
        let change = SourcePriorityChange(typeIdentifier: steps, appIDs: ["org.b", "org.a"])
        #expect(try SourcePriorityChange(wire: change.wireBytes()) == change)
        #expect(try SourcePriorityChange(wire: SourcePriorityChange.reset(steps).wireBytes()) == .reset(steps))
        #expect(try SourceListRequest(wire: SourceListRequest(typeIdentifier: "").wireBytes()).typeIdentifier == "")
    }
}
