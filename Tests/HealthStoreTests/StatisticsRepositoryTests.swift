import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// The rows statistics read: scoped by `SampleSQL.visibility`, grouped by source in the user's
/// priority order; and the priority order itself.
@Suite(.timeLimit(.minutes(10))) struct StatisticsRepositoryTests {
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let watch = SourceRecord(bundleIdentifier: "org.example.watch", name: "Watch", version: "1")
    static let phone = SourceRecord(bundleIdentifier: "org.example.phone", name: "Phone", version: "1")

    static func sample(_ start: Int, _ end: Int, _ value: Double, type: String = steps) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: Date(timeIntervalSince1970: Double(start)),
                     endDate: Date(timeIntervalSince1970: Double(end)), value: .quantity(value, unit: "count"))
    }

    /// Watch saves first, then the phone (the default order is still the phone's first: it goes by
    /// bundle identifier, not by who wrote first); the watch's samples arrive out of time order.
    static func database() async throws -> HealthDatabase {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try await database.samples.insert([sample(100, 160, 5), sample(0, 60, 60)], source: watch)
        _ = try await database.samples.insert([sample(30, 90, 90), sample(0, 0, 70, type: heartRate)], source: phone)
        return database
    }

    static func summary(_ sources: [SourceSamples]) -> [String] {
        sources.map { source in
            source.source.bundleIdentifier + ": " + source.samples.map { "\($0.span.start / 1_000_000)=\($0.value)" }.joined(separator: " ")
        }
    }

    @Test func sourcesComeInTheDefaultOrderWithSamplesSortedByStart() async throws {
        let database = try await Self.database()
        let sources = try database.statistics.samples(typeIdentifier: Self.steps, predicate: nil, scope: .allSources)
        #expect(Self.summary(sources) == ["org.example.phone: 30=90.0", "org.example.watch: 0=60.0 100=5.0"])
    }

    @Test func theUsersOrderComesFirst() async throws {
        let database = try await Self.database()
        try database.sourcePriority.setOrder([Self.watch.bundleIdentifier], typeIdentifier: Self.steps)
        let sources = try database.statistics.samples(typeIdentifier: Self.steps, predicate: nil, scope: .allSources)
        #expect(sources.map(\.source.bundleIdentifier) == [Self.watch.bundleIdentifier, Self.phone.bundleIdentifier])
        // Another type keeps the default order.
        try database.sourcePriority.reset(typeIdentifier: Self.steps)
        let reset = try database.statistics.samples(typeIdentifier: Self.steps, predicate: nil, scope: .allSources)
        #expect(reset.map(\.source.bundleIdentifier) == [Self.phone.bundleIdentifier, Self.watch.bundleIdentifier])
    }

    @Test func ownSamplesScopeReadsOnlyTheAppsRows() async throws {
        let database = try await Self.database()
        let own = try database.statistics.samples(typeIdentifier: Self.steps, predicate: nil,
                                                  scope: .ownSamples(appID: Self.phone.bundleIdentifier))
        #expect(Self.summary(own) == ["org.example.phone: 30=90.0"])
        let stranger = try database.statistics.samples(typeIdentifier: Self.steps, predicate: nil, scope: .ownSamples(appID: "org.example.none"))
        #expect(stranger.isEmpty)
    }

    @Test func thePredicateSelectsSamples() async throws {
        let database = try await Self.database()
        let range = SamplePredicate.dateRange(start: Date(timeIntervalSince1970: 95), end: nil, strictStart: false, strictEnd: false)
        let sources = try database.statistics.samples(typeIdentifier: Self.steps, predicate: range, scope: .allSources)
        #expect(Self.summary(sources) == ["org.example.watch: 100=5.0"])
        #expect(try database.statistics.samples(typeIdentifier: "HKQuantityTypeIdentifierBodyMass", predicate: nil, scope: .allSources).isEmpty)
    }

    @Test func anOrderNamingUnknownAppsChangesNothing() async throws {
        let database = try await Self.database()
        try database.sourcePriority.setOrder([Self.phone.bundleIdentifier], typeIdentifier: Self.steps)
        #expect(throws: UnknownSourcesError(appIDs: ["org.example.ghost"])) {
            try database.sourcePriority.setOrder([Self.watch.bundleIdentifier, "org.example.ghost"], typeIdentifier: Self.steps)
        }
        #expect(try database.sourcePriority.list(typeIdentifier: Self.steps).map(\.appID)
                == [Self.phone.bundleIdentifier, Self.watch.bundleIdentifier])
    }

    @Test func listingShowsEverySourceWithCountsAndWhoPlacedIt() async throws {
        let database = try await Self.database()
        let manifest = AppManifest(id: "org.example.scale", displayName: "Scale", executable: "/bin/true", version: "1",
                                   readUsageDescription: nil, shareUsageDescription: "Weighs you.", entitlements: [])
        _ = try database.apps.install(manifest)
        // An installed app without data can be placed first.
        try database.sourcePriority.setOrder(["org.example.scale"], typeIdentifier: Self.steps)
        #expect(try database.sourcePriority.list(typeIdentifier: Self.steps) == [
            SourceEntry(appID: "org.example.scale", name: "Scale", installed: true, sampleCount: 0, orderedByUser: true),
            SourceEntry(appID: Self.phone.bundleIdentifier, name: "Phone", installed: false, sampleCount: 1, orderedByUser: false),
            SourceEntry(appID: Self.watch.bundleIdentifier, name: "Watch", installed: false, sampleCount: 2, orderedByUser: false),
        ])
        #expect(try database.sourcePriority.list(typeIdentifier: Self.heartRate).map(\.appID) == [Self.phone.bundleIdentifier])
        #expect(try database.sourcePriority.list(typeIdentifier: nil).map { "\($0.appID) \($0.sampleCount)" }
                == ["org.example.phone 2", "org.example.watch 2", "org.example.scale 0"])
    }
}
