public import Foundation
import HealthWire
import Synchronization

/// Builds a heartbeat series, as HealthKit's `HKHeartbeatSeriesBuilder`: add beats as they are
/// measured (times from the series' start date, in order), then `finishSeries` saves one
/// `HKHeartbeatSeriesSample` through the ordinary save path (share permission for
/// `HKSeriesType.heartbeat()`, validated again by healthd, journaled while the store is locked).
///
/// HealthKit keeps a builder's beats in the app until `finishSeries` ("if the client goes away
/// before calling the finish method, data will be lost"), and so does this builder: nothing
/// reaches healthd before the series is finished.
public final class HKHeartbeatSeriesBuilder: HKSeriesBuilder, @unchecked Sendable {
    /// The most beats one series may hold (`SeriesValidator.maximumHeartbeats`); adding past it fails.
    public class var maximumCount: Int { SeriesValidator.maximumHeartbeats }

    private let store: HKHealthStore
    private let device: HKDevice?
    private let startDate: Date
    private let state = Mutex(State())

    private struct State {
        var beats: [Heartbeat] = []
        var metadata: [String: MetadataValue] = [:]
        var ended: String?
    }

    public init(healthStore: HKHealthStore, device: HKDevice?, start startDate: Date) {
        store = healthStore
        self.device = device
        self.startDate = startDate
    }

    /// Adds a beat `timeIntervalSinceStart` seconds after the start date. Fails with
    /// `errorInvalidArgument` for a negative or non-finite time, a beat before the previous one,
    /// past `maximumCount`, or after the series was finished or discarded.
    public func addHeartbeat(at timeIntervalSinceStart: TimeInterval, precededByGap: Bool) async throws {
        try add(timeIntervalSinceStart, precededByGap: precededByGap)
    }

    @preconcurrency
    public func addHeartbeatWithTimeInterval(sinceSeriesStartDate timeIntervalSinceStart: TimeInterval, precededByGap: Bool,
                                             completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        do {
            try add(timeIntervalSinceStart, precededByGap: precededByGap)
            Task { completion(true, nil) }
        } catch {
            Task { completion(false, error) }
        }
    }

    /// Adds metadata to the series (later keys replace earlier ones), checked as a sample's.
    public func addMetadata(_ metadata: [String: Any]) async throws {
        try merge(metadata)
    }

    @preconcurrency
    public func addMetadata(_ metadata: [String: Any], completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        do {
            try merge(metadata)
            Task { completion(true, nil) }
        } catch {
            Task { completion(false, error) }
        }
    }

    /// Saves the series and returns it. It spans the start date to its last beat.
    public func finishSeries() async throws -> HKHeartbeatSeriesSample {
        let (beats, metadata) = try state.withLock { (state) throws(HKError) in
            try Self.checkOpen(state)
            state.ended = "finished"
            return (state.beats, state.metadata)
        }
        let end = startDate.addingTimeInterval(beats.last?.timeSinceSeriesStart ?? 0)
        let sample = HKHeartbeatSeriesSample(type: HKSeriesType.heartbeat(), value: .heartbeatSeries(HeartbeatSeriesValue(beats: beats)),
                                             count: beats.count, start: startDate, end: end, device: device,
                                             metadata: metadata.isEmpty ? nil : metadata.mapValues(\.anyValue))
        do {
            try await store.save(sample)
        } catch {
            // A refused save leaves the builder usable, as HealthKit's does on failure.
            state.withLock { $0.ended = nil }
            throw error
        }
        return sample
    }

    @preconcurrency
    public func finishSeries(completion: @escaping @Sendable (HKHeartbeatSeriesSample?, (any Error)?) -> Void) {
        Task {
            do {
                completion(try await finishSeries(), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    override func discardCollected() {
        state.withLock { state in
            state.beats = []
            state.ended = "discarded"
        }
    }

    private func add(_ time: TimeInterval, precededByGap: Bool) throws(HKError) {
        try state.withLock { (state) throws(HKError) in
            try Self.checkOpen(state)
            let beat = Heartbeat(timeSinceSeriesStart: time, precededByGap: precededByGap)
            // The same checks healthd applies, with the beat's position; the end is open here.
            try SeriesValidator.check(Array(state.beats.suffix(1)) + [beat], start: startDate, end: .distantFuture)
            guard state.beats.count < Self.maximumCount else {
                throw HKError(.errorInvalidArgument, "a heartbeat series holds at most \(Self.maximumCount) beats (HKHeartbeatSeriesBuilder.maximumCount)")
            }
            state.beats.append(beat)
        }
    }

    private func merge(_ metadata: [String: Any]) throws(HKError) {
        let (values, conversionError) = MetadataConversion.convert(metadata)
        if let conversionError { throw conversionError }
        try state.withLock { (state) throws(HKError) in
            try Self.checkOpen(state)
            state.metadata.merge(values ?? [:]) { _, new in new }
        }
    }

    private static func checkOpen(_ state: State) throws(HKError) {
        if let ended = state.ended {
            throw HKError(.errorInvalidArgument, "this heartbeat series builder's series was already \(ended); use a new HKHeartbeatSeriesBuilder")
        }
    }
}
