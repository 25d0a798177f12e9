import Foundation

extension HKHealthStore {
    /// Apple (iOS 9, deprecated in 11 but still called): "Calculates the active and resting
    /// energy burned based on the total energy burned over the given duration"; the handler gets
    /// the resting portion, then the active one, then an error.
    ///
    /// HealthKit estimates the resting part from the user's body data. Here it is what the store
    /// says was burned at rest: the sum of the resting (basal) energy samples the app may read in
    /// `start…end`, a sample straddling a bound counted for its part inside (the statistics
    /// query's proration), capped at the total. The active part is the rest of the total. Both
    /// are in kilocalories. With no readable basal energy in the interval there is nothing to
    /// split by: `errorNoData`. A total that is not an energy, negative or not finite, or an end
    /// before the start, is `errorInvalidArgument`.
    func brokerSplitTotalEnergy(_ totalEnergy: HKQuantity, start startDate: Date, end endDate: Date) async throws
        -> (resting: HKQuantity, active: HKQuantity) {
        let kilocalorie = HKUnit.kilocalorie()
        guard totalEnergy.is(compatibleWith: kilocalorie) else {
            throw HKError(.errorInvalidArgument, "splitTotalEnergy needs an energy (kcal, kJ …), got a quantity in \(totalEnergy.unit.unitString)")
        }
        let total = totalEnergy.doubleValue(for: kilocalorie)
        guard total.isFinite, total >= 0 else {
            throw HKError(.errorInvalidArgument, "splitTotalEnergy needs a finite total energy of 0 or more")
        }
        guard startDate <= endDate else {
            throw HKError(.errorInvalidArgument, "splitTotalEnergy: the end (\(endDate)) is before the start (\(startDate))")
        }
        let basal = HKQuantityType(.basalEnergyBurned)
        let spec = StatisticsQuerySpec(typeIdentifier: basal.identifier,
                                       predicate: .dateRange(start: startDate, end: endDate, strictStart: false, strictEnd: false),
                                       options: .cumulativeSum)
        let statistics = HKStatistics(type: basal, result: try await connection.statistics(spec), separateBySource: false)
        guard let resting = statistics.sumQuantity()?.doubleValue(for: kilocalorie) else {
            throw HKError(.errorNoData, "no resting energy (HKQuantityTypeIdentifierBasalEnergyBurned) this app may read "
                          + "between the start and the end, so the total cannot be split")
        }
        let restingPart = min(total, max(0, resting))
        return (HKQuantity(unit: kilocalorie, doubleValue: restingPart), HKQuantity(unit: kilocalorie, doubleValue: total - restingPart))
    }

    func brokerSplitTotalEnergy(_ totalEnergy: HKQuantity, start startDate: Date, end endDate: Date,
                                resultsHandler: @escaping @Sendable (HKQuantity?, HKQuantity?, (any Error)?) -> Void) {
        Task {
            do {
                let (resting, active) = try await brokerSplitTotalEnergy(totalEnergy, start: startDate, end: endDate)
                resultsHandler(resting, active, nil)
            } catch {
                resultsHandler(nil, nil, error)
            }
        }
    }
}
