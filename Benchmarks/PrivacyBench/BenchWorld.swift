import Foundation
import HealthModel
import HealthStore

/// What the probing app holds and names in both worlds: its own samples (the same records, so
/// the same UUIDs and times, in both stores) and the identifiers its predicates name.
struct BenchPlan: Sendable {
    let hidden: Int
    let ownSteps: [SampleRecord]
    let ownHeartRate: [SampleRecord]
    let ownEnergy: [SampleRecord]
    let ownReadings: [SampleRecord]
    /// Hidden saves after the anchors the anchored cells hold (20,000 and 200,000, at most `hidden`).
    let savesAfterAnchor: [Int]

    init(hidden: Int) {
        self.hidden = hidden
        ownSteps = BenchData.own(BenchData.steps, spreadOver: hidden)
        ownHeartRate = BenchData.own(BenchData.heartRate, spreadOver: hidden)
        ownEnergy = BenchData.own(BenchData.activeEnergy, spreadOver: hidden)
        ownReadings = BenchData.bloodPressureReadings(count: 50, spacing: Double(max(hidden, BenchData.ownCount)) / 50 * 30)
        savesAfterAnchor = [20_000, 200_000].map { min($0, hidden) }
    }

    /// Hidden correlations and active-energy samples: a tenth of `hidden` each (a correlation is
    /// three objects), so the store stays about 2.4 × `hidden` rows.
    var hiddenMinor: Int { hidden / 10 }
}

/// What one world's store holds that the cells refer to: sealed anchors and the UUIDs a
/// predicate names (those of hidden objects exist only in the world that has them; the empty
/// world names the full world's).
struct BenchWorld: Sendable {
    var anchors: [[UInt8]] = []
    /// The UUIDs the store minted for 100 of the app's own heart-rate samples.
    var ownHeartRateUUIDs: [UUID] = []
    var hiddenHeartRateUUIDs: [UUID] = []
    var hiddenWorkout = UUID()
}

enum BenchStoreBuilder {
    static let appID = "org.bench.probe"

    /// Fills the store in `directory`: the probing app installed, its own samples, and (when
    /// `hidden` > 0) another source's hidden data. The step-count anchors are sealed for the
    /// probing app at the point where `plan.savesAfterAnchor` hidden step samples remain to be
    /// saved, as if the app had run its anchored query then and the other app saved after.
    static func build(_ plan: BenchPlan, hidden: Int, app: AppManifest, in directory: String,
                      naming names: BenchWorld? = nil) async throws -> BenchWorld {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        let database = try HealthDatabase(writer: store.writer)
        _ = try database.apps.install(app)
        // This process connects by path as the probing app, so the user's opt-in to direct
        // connections is given here (health-sandbox would launch-bind it otherwise).
        _ = try database.apps.setDirectConnections(appID: app.id, allowed: true)
        let source = SourceRecord(bundleIdentifier: app.id, name: app.displayName, version: app.version)
        var world = names ?? BenchWorld()
        for records in [plan.ownSteps, plan.ownHeartRate, plan.ownEnergy, plan.ownReadings] {
            let uuids = try await database.samples.insert(records, source: source)
            if records.first?.typeIdentifier == BenchData.heartRate { world.ownHeartRateUUIDs = Array(uuids.prefix(100)) }
        }
        if hidden > 0 {
            let heartRate = try await BenchData.insertHidden(BenchData.heartRate, count: hidden, into: database)
            world.hiddenHeartRateUUIDs = Array(heartRate.prefix(100))
            let workout = BenchData.workoutRecord()
            world.hiddenWorkout = try await database.samples.insert([workout], source: BenchData.other)[0]
            try await database.samples.associate(Array(heartRate.prefix(1_000)), with: world.hiddenWorkout,
                                                 appID: BenchData.other.bundleIdentifier)
            try await BenchData.insertHidden(BenchData.activeEnergy, count: plan.hiddenMinor, into: database)
            var readings = 0
            while readings < plan.hiddenMinor {
                let batch = min(5_000, plan.hiddenMinor - readings)
                _ = try await database.samples.insert(BenchData.bloodPressureReadings(count: batch, spacing: 300), source: BenchData.other)
                readings += batch
            }
        }
        // Step count last, with the anchors between its saves (the largest number of later saves first).
        var saved = 0
        world.anchors = []
        for after in plan.savesAfterAnchor.sorted(by: >) {
            let upTo = hidden - (hidden > 0 ? after : 0)
            try await BenchData.insertHidden(BenchData.steps, count: upTo - saved, offset: saved, into: database)
            saved = upTo
            let cursor = ChangeCursor(completeThrough: try database.changeFeed.currentChange())
            world.anchors.append(try database.changeFeed.anchors.seal(cursor, appID: app.id, typeIdentifier: BenchData.steps))
        }
        try await BenchData.insertHidden(BenchData.steps, count: hidden - saved, offset: saved, into: database)
        world.anchors.reverse()  // the same order as plan.savesAfterAnchor
        return world
    }

    /// Sets the probing app's read grants on every type the cells read to `state`.
    static func apply(_ state: ReadState, appID: String, in directory: String) throws {
        let store = try EncryptedDatabase.open(directory: directory)
        defer { try? store.close() }
        let database = try HealthDatabase(writer: store.writer)
        let types = [BenchData.steps, BenchData.heartRate, BenchData.activeEnergy, BenchData.systolic, BenchData.diastolic,
                     BenchData.workout, BenchData.activitySummary]
        let clear = types.map { GrantDecision($0, .read, .notDetermined) }
        try database.grants.apply(appID: appID, clear)
        for step in state.grantSteps {
            try database.grants.apply(appID: appID, types.map { GrantDecision($0, .read, step.decision, limits: step.limits) })
        }
    }
}
