import Foundation

extension HKHealthStore {
    /// Apple (iOS 15): "Recalibrates the prediction algorithm used to calculate the specified
    /// sample type", from `date` on — after surgery, say, estimates use only later data. Only
    /// types whose `allowsRecalibrationForEstimates` is true may be recalibrated, and the
    /// effective date may not be in the future; both are refused with `errorInvalidArgument`,
    /// as HealthKit does.
    ///
    /// healthd runs no prediction algorithm: a six-minute-walk distance is stored only when an
    /// app or an import saves one, and nothing is estimated from other data. So there is no
    /// calibration to reset, and an accepted request succeeds without changing the store
    /// (README, "Differences from Apple's HealthKit").
    func brokerRecalibrateEstimates(sampleType: HKSampleType, date: Date) async throws {
        guard sampleType.allowsRecalibrationForEstimates else {
            throw HKError(.errorInvalidArgument, "Estimate recalibration is not supported for \(sampleType.identifier); "
                          + "see HKSampleType.allowsRecalibrationForEstimates")
        }
        guard date <= Date() else {
            throw HKError(.errorInvalidArgument, "Effective date (\(date)) cannot be in the future.")
        }
    }

    func brokerRecalibrateEstimates(sampleType: HKSampleType, date: Date,
                                    completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.recalibrateEstimates(sampleType: sampleType, date: date) }
    }
}
