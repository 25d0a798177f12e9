public import Foundation

/// A sample that holds a series of data points, as HealthKit's `HKSeriesSample`.
public class HKSeriesSample: HKSample, @unchecked Sendable {
    /// How many data points the series holds.
    public let count: Int

    init(type: HKSeriesType, fetched record: SampleRecord, count: Int, parts: FetchedObjectParts) {
        self.count = count
        super.init(type: type, fetched: record, parts: parts)
    }

    /// A series made here (a builder's), before it is saved.
    init(type: HKSeriesType, value: SampleRecord.Value, count: Int, start: Date, end: Date, device: HKDevice?, metadata: [String: Any]?) {
        self.count = count
        super.init(type: type, value: value, start: start, end: end, device: device, metadata: metadata)
    }
}

/// A workout's GPS route, as HealthKit's `HKWorkoutRoute`. Made by `HKWorkoutRouteBuilder`;
/// its locations are read with `HKWorkoutRouteQuery`.
public final class HKWorkoutRoute: HKSeriesSample, @unchecked Sendable {}
