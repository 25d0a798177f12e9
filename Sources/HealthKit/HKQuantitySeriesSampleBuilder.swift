public import Foundation
import HealthWire
import Synchronization

/// Builds a quantity sample holding many quantities, as HealthKit's
/// `HKQuantitySeriesSampleBuilder` (a class of its own, not an `HKSeriesBuilder`): insert
/// quantities with their date intervals, then `finishSeries` saves one `HKQuantitySample` whose
/// `count` is the number of quantities, through the ordinary save path (share permission for
/// the quantity type, validated again by healthd, journaled while the store is locked).
///
/// As HealthKit's builder, it keeps the quantities in the app until `finishSeries`: nothing
/// reaches healthd before the series is finished.
///
/// Apple's rules (developer.apple.com/documentation/healthkit/hkquantityseriessamplebuilder):
/// a quantity needs a unit compatible with the type and an interval starting no earlier than
/// `startDate` (else `errorInvalidArgument`); a quantity inserted at the start of an earlier one
/// replaces it; `finishSeries` fails before any quantity is inserted, or with an end date before
/// `startDate` or before a quantity's end; finishing or discarding invalidates the builder.
/// Quantities may be inserted in any order; one whose interval overlaps another's is refused
/// with `errorInvalidArgument` (statistics split a series by its quantities' intervals, which
/// must not count the same time twice).
public final class HKQuantitySeriesSampleBuilder: NSObject, @unchecked Sendable {
    public let quantityType: HKQuantityType
    public let startDate: Date
    public let device: HKDevice?

    private let store: HKHealthStore
    private let state = Mutex(State())

    private struct State {
        /// In start order, in the type's canonical unit: an insert finds its place and both
        /// neighbours by binary search, so a long series costs O(log n) an insert.
        var quantities: [QuantitySeriesDatum] = []
        var ended: String?
    }

    public init(healthStore: HKHealthStore, quantityType: HKQuantityType, startDate: Date, device: HKDevice?) {
        store = healthStore
        self.quantityType = quantityType
        self.startDate = startDate
        self.device = device
    }

    /// Adds `quantity` over `dateInterval`. See the type's rules.
    public func insert(_ quantity: HKQuantity, for dateInterval: DateInterval) throws {
        try add(quantity, dateInterval)
    }

    /// Adds `quantity` at `date`: an interval of length 0 there, as HealthKit's does.
    public func insert(_ quantity: HKQuantity, at date: Date) throws {
        try add(quantity, DateInterval(start: date, duration: 0))
    }

    /// Saves the series and returns its sample. It spans `startDate` to `endDate`, or to the
    /// latest end of its quantities when `endDate` is nil.
    public func finishSeries(metadata: [String: Any]?, endDate: Date?) async throws -> [HKQuantitySample] {
        let (values, conversionError) = MetadataConversion.convert(metadata)
        if let conversionError { throw conversionError }
        return try await finish(metadata: values, endDate: endDate)
    }

    public func finishSeries(metadata: [String: Any]?) async throws -> [HKQuantitySample] {
        let (values, conversionError) = MetadataConversion.convert(metadata)
        if let conversionError { throw conversionError }
        return try await finish(metadata: values, endDate: nil)
    }

    @preconcurrency
    public func finishSeries(metadata: [String: Any]?, endDate: Date?,
                             completion: @escaping @Sendable ([HKQuantitySample]?, (any Error)?) -> Void) {
        // Converted before the task: the dictionary of `Any` is not Sendable, its values are.
        let (values, conversionError) = MetadataConversion.convert(metadata)
        Task {
            do {
                if let conversionError { throw conversionError }
                completion(try await finish(metadata: values, endDate: endDate), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    @preconcurrency
    public func finishSeries(metadata: [String: Any]?, completion: @escaping @Sendable ([HKQuantitySample]?, (any Error)?) -> Void) {
        finishSeries(metadata: metadata, endDate: nil, completion: completion)
    }

    private func finish(metadata: [String: MetadataValue]?, endDate: Date?) async throws -> [HKQuantitySample] {
        let data = try state.withLock { (state) throws(HKError) in
            try Self.checkOpen(state)
            let data = state.quantities
            guard let latest = data.map(\.end).max() else {
                throw HKError(.errorInvalidArgument, "insert at least one quantity before finishing an HKQuantitySeriesSampleBuilder's series")
            }
            if let endDate, endDate < startDate || endDate < latest {
                throw HKError(.errorInvalidArgument, "the series' end date must not be before its start date or the end of any of its quantities")
            }
            state.ended = "finished"
            return data
        }
        let cumulative = quantityType.aggregationStyle == .cumulative
        guard let summary = QuantitySeries.summarizing(data, cumulative: cumulative), let latest = data.map(\.end).max() else {
            throw HKError(.errorInvalidArgument, "insert at least one quantity before finishing an HKQuantitySeriesSampleBuilder's series")
        }
        let quantity = HKQuantity(unit: quantityType.canonicalUnit, doubleValue: summary.quantity)
        let end = endDate ?? latest
        let metadata = metadata.map { $0.mapValues(\.anyValue) }
        let sample: HKQuantitySample = if cumulative {
            HKCumulativeQuantitySample(type: quantityType, quantity: quantity, series: summary.series, start: startDate, end: end,
                                       device: device, metadata: metadata)
        } else {
            HKDiscreteQuantitySample(type: quantityType, quantity: quantity, series: summary.series, start: startDate, end: end,
                                     device: device, metadata: metadata)
        }
        do {
            try await store.save(sample)
        } catch {
            // A refused save leaves the builder usable, as for HKHeartbeatSeriesBuilder.
            state.withLock { $0.ended = nil }
            throw error
        }
        return [sample]
    }

    /// Drops every inserted quantity; a later insert or finish fails.
    public func discard() {
        state.withLock { state in
            state.quantities = []
            state.ended = "discarded"
        }
    }

    private func add(_ quantity: HKQuantity, _ interval: DateInterval) throws(HKError) {
        guard quantityType.is(compatibleWith: quantity.unit) else {
            throw HKError(.errorInvalidArgument,
                          "unit \(quantity.unit.unitString) is not compatible with \(quantityType.identifier) (expected a unit like \(quantityType.canonicalUnit.unitString))")
        }
        guard interval.start >= startDate else {
            throw HKError(.errorInvalidArgument, "a quantity's date interval must not start before the builder's start date")
        }
        let datum = QuantitySeriesDatum(value: quantity.doubleValue(for: quantityType.canonicalUnit), start: interval.start, end: interval.end)
        guard datum.value.isFinite else {
            throw HKError(.errorInvalidArgument, "a quantity of a series must be a finite number")
        }
        try state.withLock { (state) throws(HKError) in
            try Self.checkOpen(state)
            // One at the same start is replaced (Apple's rule); any other may not share time.
            var low = 0
            var high = state.quantities.count
            while low < high {
                let middle = (low + high) / 2
                if state.quantities[middle].start < datum.start { low = middle + 1 } else { high = middle }
            }
            let replaces = low < state.quantities.count && state.quantities[low].start == datum.start
            let next = replaces ? low + 1 : low
            if low > 0, state.quantities[low - 1].end > datum.start {
                throw HKError(.errorInvalidArgument, "a quantity's date interval overlaps the previous quantity's in this series")
            }
            if next < state.quantities.count, state.quantities[next].start < datum.end {
                throw HKError(.errorInvalidArgument, "a quantity's date interval overlaps the next quantity's in this series")
            }
            if replaces {
                state.quantities[low] = datum
            } else {
                guard state.quantities.count < QuantitySeriesRules.maximumCount else {
                    throw HKError(.errorInvalidArgument,
                                  "a quantity series holds at most \(QuantitySeriesRules.maximumCount) quantities; finish this series and start another")
                }
                state.quantities.insert(datum, at: low)
            }
        }
    }

    private static func checkOpen(_ state: State) throws(HKError) {
        if let ended = state.ended {
            throw HKError(.errorInvalidArgument, "this quantity series builder's series was already \(ended); use a new HKQuantitySeriesSampleBuilder")
        }
    }
}
