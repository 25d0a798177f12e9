public import Foundation

/// Reads a heartbeat series' beats, as HealthKit's `HKHeartbeatSeriesQuery`: the data handler is
/// called once per beat, in time order, the last time with `done` true; on failure once, with
/// the error and `done` true. A series without beats calls it once with time 0 and `done` true.
/// Needs read permission for `HKSeriesType.heartbeat()`, or the series must be the app's own;
/// any other series fails with `errorNoData`, like one that does not exist.
public final class HKHeartbeatSeriesQuery: HKQuery, @unchecked Sendable {
    public typealias DataHandler = @Sendable (HKHeartbeatSeriesQuery, TimeInterval, Bool, Bool, (any Error)?) -> Void

    private let series: HKHeartbeatSeriesSample
    private let dataHandler: DataHandler

    @preconcurrency
    public init(heartbeatSeries: HKHeartbeatSeriesSample, dataHandler: @escaping DataHandler) {
        series = heartbeatSeries
        self.dataHandler = dataHandler
        super.init(objectType: HKSeriesType.heartbeat(), predicate: nil)
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                var delivered = false
                try await connection.seriesPoints(series.uuid, typeIdentifier: HKDataTypeIdentifierHeartbeatSeries) { _, points, done in
                    guard case let .heartbeats(beats) = points else { return }
                    for (index, beat) in beats.enumerated() {
                        delivered = true
                        dataHandler(self, beat.timeSinceSeriesStart, beat.precededByGap, done && index == beats.count - 1, nil)
                    }
                    if done, beats.isEmpty, !delivered { dataHandler(self, 0, false, true, nil) }
                }
            } catch {
                dataHandler(self, 0, false, true, error)
            }
        }
        if !started {
            Task { [self] in
                dataHandler(self, 0, false, true, HKError(.errorInvalidArgument,
                                                          "this HKHeartbeatSeriesQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}

/// HealthKit's async heartbeat query: `for try await beat in descriptor.results(for: store)`.
public struct HKHeartbeatSeriesQueryDescriptor: Sendable {
    /// One beat: its time from the sample's start, and whether beats may be missing before it.
    public struct Heartbeat: Hashable, Sendable {
        public let timeIntervalSinceStart: TimeInterval
        public let precededByGap: Bool
    }

    public typealias Results = AsyncThrowingStream<Heartbeat, any Error>

    public let sample: HKHeartbeatSeriesSample

    public init(_ sample: HKHeartbeatSeriesSample) {
        self.sample = sample
    }

    /// The series' beats in time order. Ending the iteration early stops the broker's stream.
    public func results(for healthStore: HKHealthStore) -> Results {
        let uuid = sample.uuid
        let connection = healthStore.connection
        return AsyncThrowingStream { continuation in
            let task = Task {
                do throws(HKError) {
                    try await connection.seriesPoints(uuid, typeIdentifier: HKDataTypeIdentifierHeartbeatSeries) { _, points, _ in
                        guard case let .heartbeats(beats) = points else { return }
                        for beat in beats {
                            continuation.yield(Heartbeat(timeIntervalSinceStart: beat.timeSinceSeriesStart, precededByGap: beat.precededByGap))
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
