public import Foundation

/// Reads an electrocardiogram's voltages, as HealthKit's `HKElectrocardiogramQuery`: the data
/// handler is called once per measurement, in time order, then once with `done` true and no
/// measurement; on failure once, with the error and `done` true. Needs read permission for
/// `HKObjectType.electrocardiogramType()`; an ECG the app may not read fails with
/// `errorNoData`, like one that does not exist.
public final class HKElectrocardiogramQuery: HKQuery, @unchecked Sendable {
    public typealias DataHandler = @Sendable (HKElectrocardiogramQuery, HKElectrocardiogram.VoltageMeasurement?, Bool, (any Error)?) -> Void

    /// One call of the Swift-style handler (`init(_:dataHandler:)`).
    public enum Result: @unchecked Sendable {
        case measurement(HKElectrocardiogram.VoltageMeasurement)
        case done
        case error(any Error)
    }

    private let electrocardiogram: HKElectrocardiogram
    private let dataHandler: DataHandler

    @preconcurrency
    public init(electrocardiogram: HKElectrocardiogram, dataHandler: @escaping DataHandler) {
        self.electrocardiogram = electrocardiogram
        self.dataHandler = dataHandler
        super.init(objectType: HKObjectType.electrocardiogramType(), predicate: nil)
    }

    @preconcurrency
    public convenience init(_ ecg: HKElectrocardiogram, dataHandler: @escaping @Sendable (HKElectrocardiogramQuery, Result) -> Void) {
        self.init(electrocardiogram: ecg) { query, measurement, done, error in
            if let error {
                dataHandler(query, .error(error))
            } else if let measurement {
                dataHandler(query, .measurement(measurement))
            } else if done {
                dataHandler(query, .done)
            }
        }
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                try await ElectrocardiogramVoltages.stream(electrocardiogram, on: connection) { measurement in
                    dataHandler(self, measurement, false, nil)
                }
                dataHandler(self, nil, true, nil)
            } catch {
                dataHandler(self, nil, true, error)
            }
        }
        if !started {
            Task { [self] in
                dataHandler(self, nil, true, HKError(.errorInvalidArgument,
                                                     "this HKElectrocardiogramQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}

/// HealthKit's async voltage query: `for try await measurement in descriptor.results(for: store)`.
public struct HKElectrocardiogramQueryDescriptor: Sendable {
    public typealias Results = AsyncThrowingStream<HKElectrocardiogram.VoltageMeasurement, any Error>

    public let electrocardiogram: HKElectrocardiogram

    public init(_ electrocardiogram: HKElectrocardiogram) {
        self.electrocardiogram = electrocardiogram
    }

    /// The voltages in time order. Ending the iteration early stops the broker's stream.
    public func results(for healthStore: HKHealthStore) -> Results {
        let ecg = electrocardiogram
        let connection = healthStore.connection
        return AsyncThrowingStream { continuation in
            let task = Task {
                do throws(HKError) {
                    try await ElectrocardiogramVoltages.stream(ecg, on: connection) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// The voltages of an ECG as measurements: the n-th at n / samplingFrequency seconds.
enum ElectrocardiogramVoltages {
    static func stream(_ ecg: HKElectrocardiogram, on connection: BrokerConnection,
                       _ handle: (HKElectrocardiogram.VoltageMeasurement) -> Void) async throws(HKError) {
        let frequency = ecg.samplingFrequency?.doubleValue(for: .hertz()) ?? 0
        try await connection.seriesPoints(ecg.uuid, typeIdentifier: HKElectrocardiogramTypeIdentifier) { first, points, _ in
            guard case let .voltages(voltages) = points else { return }
            for (offset, volts) in voltages.enumerated() {
                let time = frequency > 0 ? Double(first + offset) / frequency : 0
                handle(HKElectrocardiogram.VoltageMeasurement(timeSinceSampleStart: time, volts: volts))
            }
        }
    }
}
