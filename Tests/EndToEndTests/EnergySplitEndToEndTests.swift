import Foundation
import Testing
import TestSupport

/// HKHealthStore.splitTotalEnergy(_:start:end:resultsHandler:) through a real healthd
/// (developer.apple.com/documentation/healthkit/hkhealthstore/splittotalenergy(_:start:end:resultshandler:):
/// "Calculates the active and resting energy burned based on the total energy burned over the
/// given duration"; the handler's first quantity is the resting portion, the second the active
/// one). Here the resting portion is the stored basal energy the app may read in the interval.
@Suite(.serialized, .timeLimit(.minutes(10))) struct EnergySplitEndToEndTests {
    static let basal = "HKQuantityTypeIdentifierBasalEnergyBurned"
    /// 2024-05-01 08:00 UTC.
    static let eight = 1_714_550_400

    /// The reader's resting energy: 60 kcal over 08:00–09:00 and 30 kcal over 09:00–09:30.
    static func world() async throws -> (BrokerProcess, String) {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.energy-split")
        try await broker.set(app, "share", Self.basal, allowed: true)
        try await broker.set(app, "read", Self.basal, allowed: true)
        for (start, minutes, kcal) in [(eight, 60, 60), (eight + 3600, 30, 30)] {
            let saved = try await broker.runApp(app, ["workout-snippet", "energy-basal-save", "\(start)", "\(minutes)", "\(kcal)"])
            #expect(saved.status == 0 && saved.okValue != nil, "\(saved)")
        }
        return (broker, app)
    }

    static func split(_ broker: BrokerProcess, _ app: String, _ total: String, _ start: Int, _ end: Int) async throws -> String {
        let result = try await broker.runApp(app, ["workout-snippet", "energy-split", total, "\(start)", "\(end)"])
        #expect(result.status == 0, "\(result)")
        return result.lines.last ?? ""
    }

    @Test func theRestingPartIsTheStoredBasalEnergyInTheInterval() async throws {
        let (broker, app) = try await Self.world()
        // 08:30–09:30: half of the first sample (30 kcal) and all of the second (30 kcal).
        #expect(try await Self.split(broker, app, "200:kcal", Self.eight + 1800, Self.eight + 5400) == "ok 60.000 140.000")
        // The total in kJ: 836.8 kJ = 200 kcal.
        #expect(try await Self.split(broker, app, "836.8:kJ", Self.eight + 1800, Self.eight + 5400) == "ok 60.000 140.000")
        // A total below the resting energy is all resting.
        #expect(try await Self.split(broker, app, "20:kcal", Self.eight, Self.eight + 5400) == "ok 20.000 0.000")
        // No basal energy at all in the interval: errorNoData (11).
        #expect(try await Self.split(broker, app, "200:kcal", Self.eight + 7200, Self.eight + 9000) == "error 11")
        // Not an energy: errorInvalidArgument (3).
        #expect(try await Self.split(broker, app, "5:km", Self.eight, Self.eight + 5400) == "error 3")
    }

    /// DESIGN.md §7.3: another app's resting energy, which the reader may not read, changes nothing.
    @Test func hiddenBasalEnergyIsNotCounted() async throws {
        let (broker, app) = try await Self.world()
        let other = try await broker.installClient("org.test.energy-split-other")
        try await broker.set(other, "share", Self.basal, allowed: true)
        let saved = try await broker.runApp(other, ["workout-snippet", "energy-basal-save", "\(Self.eight)", "120", "500"])
        #expect(saved.status == 0, "\(saved)")
        try await broker.set(app, "read", Self.basal, allowed: false)
        #expect(try await Self.split(broker, app, "200:kcal", Self.eight + 1800, Self.eight + 5400) == "ok 60.000 140.000")
        #expect(try await Self.split(broker, app, "200:kcal", Self.eight + 7200, Self.eight + 9000) == "error 11")
    }
}
