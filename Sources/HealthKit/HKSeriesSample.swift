public import Foundation

/// A sample that holds a series of data points, as HealthKit's `HKSeriesSample`.
public class HKSeriesSample: HKSample, @unchecked Sendable {
    /// How many data points the series holds.
    public let count: Int

    /// Reads an archive (`ArchivedSample`); inherited by `HKWorkoutRoute` and
    /// `HKHeartbeatSeriesSample`, each of which decodes only its own kind of series. The data
    /// points stay in the store (read them with the series' query), as for a fetched sample.
    public required convenience init?(coder: NSCoder) {
        guard let archived = ArchivedSample(coder), let type = archived.type as? HKSeriesType else { return nil }
        let count: Int
        switch archived.record.value {
        case let .workoutRoute(locationCount) where Self.self == HKWorkoutRoute.self:
            count = locationCount
        case let .heartbeatSeries(series) where Self.self == HKHeartbeatSeriesSample.self:
            count = series.count
        default:
            return nil
        }
        self.init(type: type, fetched: archived.record, count: count, parts: archived.parts)
    }

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
