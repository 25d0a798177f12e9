import Foundation
import HealthModel
import HealthWire

/// One query kind as the probing app sends it: the method, how it answers, and the request.
/// Requests are built with HealthWire's messages, as the SDK would, and differ between worlds
/// only in the sealed anchors each store issued.
struct QueryCell: Sendable {
    enum Shape: Sendable {
        /// A unary call; the reply is one item.
        case unary
        /// A server stream read to its end.
        case stream
        /// A long-running stream: timed to its first message (the observer's initial update),
        /// then cancelled.
        case firstMessage
    }

    let name: String
    let method: HealthStoreMethod
    let shape: Shape
    /// The request for one world.
    let request: @Sendable (BenchWorld) -> [UInt8]
    /// The items (samples, deleted objects, statistics, sources, days, updates) in one message.
    let items: @Sendable ([UInt8]) throws -> Int

    /// The bytes of a message that must be the same in both worlds: all of them, but for what
    /// each store mints afresh — an anchored batch's sealed anchor (a random nonce each time, of
    /// fixed length: its length is kept), the UUIDs the store gave the app's own samples when
    /// each world's store was filled (`SampleRepository.insert` mints them), and observer ids.
    func comparable(_ message: [UInt8]) throws -> [UInt8] {
        switch method {
        case .querySamples, .queryCorrelations:
            return SampleList(try SampleList(wire: message).samples.map(Self.withoutUUID)).wireBytes()
        case .queryAnchored:
            var batch = try AnchoredQueryBatch(wire: message)
            batch.anchor = batch.anchor.isEmpty ? [] : [UInt8(truncatingIfNeeded: batch.anchor.count)]
            batch.samples = batch.samples.map(Self.withoutUUID)
            return batch.wireBytes()
        case .observeChanges:
            var delivery = try ObserverDelivery(wire: message)
            delivery.observerID = 0
            return delivery.wireBytes()
        default:
            return message
        }
    }

    static func withoutUUID(_ record: SampleRecord) -> SampleRecord {
        var record = record
        record.uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        if case let .correlation(members) = record.value { record.value = .correlation(members.map(withoutUUID)) }
        return record
    }

    static func cells(_ plan: BenchPlan) -> [QueryCell] {
        let byStart = [SampleSort(.startDate, ascending: true)]
        let year = SamplePredicate.dateRange(start: BenchData.start, end: BenchData.start.addingTimeInterval(365 * 86_400),
                                             strictStart: false, strictEnd: false)
        let samples: @Sendable ([UInt8]) throws -> Int = { try SampleList(wire: $0).samples.count }
        let anchored: @Sendable ([UInt8]) throws -> Int = {
            let batch = try AnchoredQueryBatch(wire: $0)
            return batch.samples.count + batch.deletedObjects.count
        }
        let statistics: @Sendable ([UInt8]) throws -> Int = { try StatisticsBatch(wire: $0).statistics.count }
        var cells = [
            QueryCell(name: "sample query, date range", method: .querySamples, shape: .stream, request: { _ in
                BenchData.spec(BenchData.steps).wireBytes()
            }, items: samples),
            QueryCell(name: "sample query, 100 own + 100 hidden UUIDs", method: .querySamples, shape: .stream, request: { world in
                SampleQuerySpec(typeIdentifier: BenchData.heartRate, predicate: .uuids(Set(world.ownHeartRateUUIDs + world.hiddenHeartRateUUIDs)),
                                sort: byStart).wireBytes()
            }, items: samples),
            QueryCell(name: "sample query, hidden workout's objects", method: .querySamples, shape: .stream, request: { world in
                SampleQuerySpec(typeIdentifier: BenchData.heartRate, predicate: .workout(world.hiddenWorkout), sort: byStart).wireBytes()
            }, items: samples),
            QueryCell(name: "anchored, nil anchor", method: .queryAnchored, shape: .stream, request: { _ in
                AnchoredQuerySpec(typeIdentifier: BenchData.steps).wireBytes()
            }, items: anchored),
            QueryCell(name: "anchored, nil anchor, hidden workout's objects", method: .queryAnchored, shape: .stream, request: { world in
                AnchoredQuerySpec(typeIdentifier: BenchData.heartRate, predicate: .workout(world.hiddenWorkout)).wireBytes()
            }, items: anchored),
        ]
        for (index, saves) in plan.savesAfterAnchor.enumerated() where !plan.savesAfterAnchor[..<index].contains(saves) {
            cells.append(QueryCell(name: "anchored, anchor + \(LatencyTable.grouped(saves)) hidden saves", method: .queryAnchored, shape: .stream,
                                   request: { world in
                AnchoredQuerySpec(typeIdentifier: BenchData.steps, anchor: world.anchors[index]).wireBytes()
            }, items: anchored))
        }
        cells += [
            QueryCell(name: "observer, initial update", method: .observeChanges, shape: .firstMessage, request: { _ in
                TypePredicateSpec(typeIdentifier: BenchData.steps).wireBytes()
            }, items: { _ = try ObserverDelivery(wire: $0); return 1 }),
            QueryCell(name: "statistics, sum", method: .queryStatistics, shape: .unary, request: { _ in
                StatisticsQuerySpec(typeIdentifier: BenchData.steps, predicate: BenchData.everything, options: .cumulativeSum).wireBytes()
            }, items: { _ = try StatisticsResult(wire: $0); return 1 }),
            QueryCell(name: "statistics, discrete avg", method: .queryStatistics, shape: .unary, request: { _ in
                StatisticsQuerySpec(typeIdentifier: BenchData.heartRate, predicate: BenchData.everything, options: .discreteAverage).wireBytes()
            }, items: { _ = try StatisticsResult(wire: $0); return 1 }),
            QueryCell(name: "statistics, avg, hidden workout's objects", method: .queryStatistics, shape: .unary, request: { world in
                StatisticsQuerySpec(typeIdentifier: BenchData.heartRate, predicate: .workout(world.hiddenWorkout),
                                    options: .discreteAverage).wireBytes()
            }, items: { _ = try StatisticsResult(wire: $0); return 1 }),
            QueryCell(name: "statistics collection, daily sum, a year", method: .queryStatisticsCollection, shape: .stream, request: { _ in
                StatisticsCollectionSpec(statistics: StatisticsQuerySpec(typeIdentifier: BenchData.steps, predicate: year, options: .cumulativeSum),
                                         anchor: BenchData.start, interval: StatisticsInterval(days: 1), timeZoneIdentifier: "UTC").wireBytes()
            }, items: statistics),
            QueryCell(name: "source query", method: .querySources, shape: .unary, request: { _ in
                TypePredicateSpec(typeIdentifier: BenchData.steps).wireBytes()
            }, items: { try SourceList(wire: $0).sources.count }),
            QueryCell(name: "correlation query, blood pressure", method: .queryCorrelations, shape: .stream, request: { _ in
                CorrelationQuerySpec(typeIdentifier: BenchData.bloodPressure, predicate: BenchData.everything, sort: byStart).wireBytes()
            }, items: samples),
            QueryCell(name: "activity summaries, a year", method: .queryActivitySummaries, shape: .stream, request: { _ in
                ActivitySummaryQuerySpec(firstDay: CalendarDay(year: 2023, month: 11, day: 14),
                                         lastDay: CalendarDay(year: 2024, month: 11, day: 12), timeZoneIdentifier: "UTC").wireBytes()
            }, items: { try ActivitySummaryBatch(wire: $0).summaries.count }),
        ]
        return cells
    }
}
