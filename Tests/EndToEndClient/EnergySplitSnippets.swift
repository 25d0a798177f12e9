import Foundation
import HealthKit

// HKHealthStore.splitTotalEnergy(_:start:end:resultsHandler:) as Apple documents it
// (developer.apple.com/documentation/healthkit/hkhealthstore/splittotalenergy(_:start:end:resultshandler:)):
// the handler gets the resting portion, then the active one.

/// `workout-snippet energy-basal-save START MINUTES KCAL`: saves one resting-energy sample.
func energyBasalSaveSnippet(_ healthStore: HKHealthStore, _ arguments: [String]) async throws {
    guard arguments.count == 3, let start = Double(arguments[0]), let minutes = Double(arguments[1]), let kcal = Double(arguments[2]) else {
        usage("energy-basal-save START MINUTES KCAL")
    }
    let startDate = Date(timeIntervalSince1970: start)
    let sample = HKQuantitySample(type: HKQuantityType(.basalEnergyBurned), quantity: HKQuantity(unit: .kilocalorie(), doubleValue: kcal),
                                  start: startDate, end: startDate.addingTimeInterval(minutes * 60))
    try await healthStore.save(sample)
    print("ok \(sample.uuid.uuidString)")
}

/// `workout-snippet energy-split VALUE:UNIT START END`: prints `ok RESTING ACTIVE` in kcal, or
/// `error CODE`.
func energySplitSnippet(_ healthStore: HKHealthStore, _ arguments: [String]) async throws {
    guard arguments.count == 3, let start = Double(arguments[1]), let end = Double(arguments[2]) else {
        usage("energy-split VALUE:UNIT START END")
    }
    let totalEnergy = quantity(arguments[0])
    let line: String = await withCheckedContinuation { continuation in
        healthStore.splitTotalEnergy(totalEnergy, start: Date(timeIntervalSince1970: start),
                                     end: Date(timeIntervalSince1970: end)) { restingEnergy, activeEnergy, error in
            if let restingEnergy, let activeEnergy {
                let kcal = { (quantity: HKQuantity) in String(format: "%.3f", quantity.doubleValue(for: .kilocalorie())) }
                continuation.resume(returning: "ok \(kcal(restingEnergy)) \(kcal(activeEnergy))")
            } else {
                continuation.resume(returning: "error \((error as? HKError)?.code.rawValue ?? -1)")
            }
        }
    }
    print(line)
}
