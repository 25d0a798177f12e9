public import Foundation

/// The checks a heartbeat series or an electrocardiogram passes before it is stored, after the
/// sample's own (dates, metadata). Pure: the SDK's builder runs the same checks early; healthd's
/// run is authoritative. Messages name the position of a bad point, never its value.
public enum SeriesValidator {
    /// `HKHeartbeatSeriesBuilder.maximumCount`. Apple does not document its value; this bound
    /// keeps a series (12 bytes a beat on the wire) far inside one frame, and is about three
    /// hours of beats at 60 bpm, longer than any beat-to-beat recording Apple Watch makes.
    public static let maximumHeartbeats = 10_000
    /// 30 s at 512 Hz is Apple Watch's recording (~15,400); this leaves room for longer leads
    /// while one ECG stays well inside a 4 MiB frame (9 bytes a voltage).
    public static let maximumVoltages = 100_000

    /// Beats: each time finite, ≥ 0 (Apple: "a positive value"), not before the previous one,
    /// and inside the sample (`start + time ≤ end`).
    public static func check(_ beats: [Heartbeat], start: Date, end: Date) throws(HKError) {
        guard beats.count <= maximumHeartbeats else {
            throw HKError(.errorInvalidArgument, "a heartbeat series holds at most \(maximumHeartbeats) beats (HKHeartbeatSeriesBuilder.maximumCount)")
        }
        let span = end.timeIntervalSince(start)
        var previous = 0.0
        for (index, beat) in beats.enumerated() {
            let time = beat.timeSinceSeriesStart
            guard time.isFinite, time >= 0 else {
                throw HKError(.errorInvalidArgument, "heartbeat \(index + 1): the time since the series start must be a finite value of at least 0")
            }
            guard time >= previous else {
                throw HKError(.errorInvalidArgument, "heartbeat \(index + 1): heartbeats must be added in time order")
            }
            guard time <= span + 1e-6 else {
                throw HKError(.errorInvalidArgument, "heartbeat \(index + 1): lies after the series' end date")
            }
            previous = time
        }
    }

    /// An electrocardiogram: known classification and symptoms status, a positive finite
    /// sampling frequency when voltages are given, a plausible average heart rate, and finite
    /// voltages whose count is the one the sample states.
    public static func check(_ ecg: ElectrocardiogramValue) throws(HKError) {
        guard ElectrocardiogramValue.classifications.contains(ecg.classification) else {
            throw HKError(.errorInvalidArgument, "electrocardiogram: unknown classification \(ecg.classification)")
        }
        guard ElectrocardiogramValue.symptomsStatuses.contains(ecg.symptomsStatus) else {
            throw HKError(.errorInvalidArgument, "electrocardiogram: unknown symptoms status \(ecg.symptomsStatus)")
        }
        if let rate = ecg.averageHeartRate, !(rate.isFinite && rate >= 0 && rate <= 1_000) {
            throw HKError(.errorInvalidArgument, "electrocardiogram: the average heart rate must lie between 0 and 1000 count/min")
        }
        if let frequency = ecg.samplingFrequency, !(frequency.isFinite && frequency > 0 && frequency <= 100_000) {
            throw HKError(.errorInvalidArgument, "electrocardiogram: the sampling frequency must lie above 0 and at most 100000 Hz")
        }
        guard ecg.voltageCount >= 0, ecg.voltageCount <= maximumVoltages else {
            throw HKError(.errorInvalidArgument, "an electrocardiogram holds at most \(maximumVoltages) voltage measurements")
        }
        let voltages = ecg.voltages ?? []
        guard voltages.count == ecg.voltageCount else {
            throw HKError(.errorInvalidArgument, "electrocardiogram: states \(ecg.voltageCount) voltage measurements but holds \(voltages.count)")
        }
        guard voltages.isEmpty || ecg.samplingFrequency != nil else {
            throw HKError(.errorInvalidArgument, "electrocardiogram: voltage measurements need a sampling frequency")
        }
        if let bad = voltages.firstIndex(where: { !$0.isFinite || abs($0) > 1 }) {
            throw HKError(.errorInvalidArgument, "electrocardiogram: voltage measurement \(bad + 1) is not a finite value within ±1 V")
        }
    }
}
