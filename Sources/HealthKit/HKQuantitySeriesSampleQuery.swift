public import Foundation
import HealthModel

/// Reads the quantities of quantity samples one by one, as HealthKit's
/// `HKQuantitySeriesSampleQuery`: for every sample of the type the predicate selects, each of its
/// quantities (a series sample's many, any other sample's one) with its date interval. The
/// handler is called once per quantity, the last time with `done` true; with no quantities, once
/// with nils and `done` true; on failure once, with the error. Needs read permission for the
/// type; without it only the app's own samples are read, as every query of the type.
/// (developer.apple.com/documentation/healthkit/hkquantityseriessamplequery)
public final class HKQuantitySeriesSampleQuery: HKQuery, @unchecked Sendable {
    public typealias QuantityHandler = @Sendable (HKQuantitySeriesSampleQuery, HKQuantity?, DateInterval?, HKQuantitySample?, Bool, (any Error)?) -> Void

    /// Pass each quantity's sample to the handler (Apple's default: false, the sample is nil).
    public var includeSample = false
    /// Samples by start date, each sample's quantities together, instead of all quantities by
    /// their own start date (Apple's default: false).
    public var orderByQuantitySampleStartDate = false

    private let quantityType: HKQuantityType
    private let handler: QuantityHandler

    @preconcurrency
    public init(quantityType: HKQuantityType, predicate: NSPredicate?, quantityHandler: @escaping QuantityHandler) {
        self.quantityType = quantityType
        handler = quantityHandler
        super.init(objectType: quantityType, predicate: predicate)
    }

    /// The iOS 12 form, deprecated by Apple in iOS 13: one sample's quantities, each with its start date.
    @available(*, deprecated, message: "Use init(quantityType:predicate:quantityHandler:)")
    @preconcurrency
    public convenience init(sample quantitySample: HKQuantitySample,
                            quantityHandler: @escaping @Sendable (HKQuantitySeriesSampleQuery, HKQuantity?, Date?, Bool, (any Error)?) -> Void) {
        self.init(quantityType: quantitySample.quantityType, predicate: HKQuery.predicateForObject(with: quantitySample.uuid)) {
            query, quantity, interval, _, done, error in
            quantityHandler(query, quantity, interval?.start, done, error)
        }
    }

    override func start(on connection: BrokerConnection) {
        let includeSample = includeSample
        let grouped = orderByQuantitySampleStartDate
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                let spec = try HKSampleQuery.spec(type: quantityType, predicate: predicate, limit: 0, sortDescriptors: [])
                let entries = try await QuantitySeriesReader.read(spec, type: quantityType, groupedBySample: grouped, on: connection)
                guard !entries.isEmpty else { return handler(self, nil, nil, nil, true, nil) }
                for (index, entry) in entries.enumerated() {
                    handler(self, entry.quantity, entry.dateInterval, includeSample ? entry.sample : nil, index == entries.count - 1, nil)
                }
            } catch {
                handler(self, nil, nil, nil, true, error)
            }
        }
        if !started {
            Task { [self] in
                handler(self, nil, nil, nil, true, HKError(.errorInvalidArgument,
                                                           "this HKQuantitySeriesSampleQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}

/// HealthKit's async quantity series query (iOS 15.4):
/// `for try await result in descriptor.results(for: store)`.
/// (developer.apple.com/documentation/healthkit/hkquantityseriessamplequerydescriptor)
public struct HKQuantitySeriesSampleQueryDescriptor: Sendable {
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Results carry the quantity's sample.
        public static let includeSample = Options(rawValue: 1 << 0)
        /// Results grouped by their sample's start date.
        public static let orderByQuantitySampleStartDate = Options(rawValue: 1 << 1)
    }

    /// One quantity of a series.
    public struct Result: Hashable, Sendable {
        /// Nil unless the options include `.includeSample`.
        public let sample: HKQuantitySample?
        public let quantity: HKQuantity
        public let dateInterval: DateInterval
    }

    public typealias Results = AsyncThrowingStream<Result, any Error>

    public var predicate: HKSamplePredicate<HKQuantitySample>
    public var options: Options

    public init(predicate: HKSamplePredicate<HKQuantitySample>, options: Options = []) {
        self.predicate = predicate
        self.options = options
    }

    /// The quantities, in HealthKit's order. Ending the iteration early stops the reading.
    public func results(for healthStore: HKHealthStore) -> Results {
        let predicate = predicate
        let options = options
        let connection = healthStore.connection
        return AsyncThrowingStream { continuation in
            let task = Task {
                do throws(HKError) {
                    guard let type = predicate.sampleType as? HKQuantityType else {
                        throw HKError(.errorInvalidArgument, "an HKQuantitySeriesSampleQueryDescriptor needs a quantity sample predicate")
                    }
                    let spec = try HKSampleQuery.spec(type: type, predicate: predicate.nsPredicate, limit: 0, sortDescriptors: [])
                    let entries = try await QuantitySeriesReader.read(spec, type: type, groupedBySample: options.contains(.orderByQuantitySampleStartDate),
                                                                      on: connection)
                    for entry in entries {
                        continuation.yield(Result(sample: options.contains(.includeSample) ? entry.sample : nil,
                                                  quantity: entry.quantity, dateInterval: entry.dateInterval))
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
