import Foundation
import HealthModel
import Testing

@testable import HealthStore

/// `predicateForObjectsWithNoCorrelation()` at the store, for every read kind that takes a
/// predicate (sources list apps, which this cannot tell apart): another app saved a blood-pressure correlation and a lone systolic sample; the
/// reader may read systolic pressure from every source. With the correlations visible
/// (`Visibility.correlations`) only the lone sample matches; with them hidden (own only, or a
/// window that starts after the reading) the correlated sample matches too — exactly what the
/// store would answer if the reading had been saved as loose samples.
@Suite(.timeLimit(.minutes(10))) struct NoCorrelationScopeTests {
    static let systolic = CorrelationRepositoryTests.systolic
    static let other = VisibilityChokePointTests.other
    static let reader = VisibilityChokePointTests.reader
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    enum Read: String, CaseIterable, Sendable { case samples, statistics, changes }

    @Test(arguments: Read.allCases)
    func aHiddenCorrelationHoldsNothing(read: Read) async throws {
        try await CorrelationRepositoryTests.withStore { database in
            let lone = SampleRecord(uuid: UUID(), typeIdentifier: Self.systolic, startDate: Self.start.addingTimeInterval(600),
                                    endDate: Self.start.addingTimeInterval(600), value: .quantity(125, unit: "mmHg"))
            _ = try await database.samples.insert([CorrelationRepositoryTests.reading(120, 80, minute: 0), lone], source: Self.other)
            let visible = Visibility.allSources
            #expect(try Self.matches(read, visible, database) == 1, "\(read)")
            for correlations in [ReadScope.ownSamples(appID: Self.reader), .recentWindow(appID: Self.reader, since: Self.start.addingTimeInterval(60))] {
                let hidden = Visibility(scope: .allSources, workouts: .allSources, correlations: correlations)
                #expect(try Self.matches(read, hidden, database) == 2, "\(read) under \(correlations)")
            }
        }
    }

    /// The app's own correlation is visible under every scope: its own correlated sample never
    /// matches, whatever it may read of others.
    @Test func anOwnCorrelationIsAlwaysVisible() async throws {
        try await CorrelationRepositoryTests.withStore { database in
            let source = SourceRecord(bundleIdentifier: Self.reader, name: "Reader", version: "1")
            _ = try await database.samples.insert([CorrelationRepositoryTests.reading(120, 80, minute: 0)], source: source)
            #expect(try Self.matches(.samples, .ownSamples(appID: Self.reader), database) == 0)
            let deleted = try await database.samples.deleteMatching(typeIdentifier: Self.systolic, predicate: .noCorrelation,
                                                                    appID: Self.reader, workouts: .ownSamples(appID: Self.reader))
            #expect(deleted == 0)
        }
    }

    static func matches(_ read: Read, _ visibility: Visibility, _ database: HealthDatabase) throws -> Int {
        switch read {
        case .samples:
            var count = 0
            try database.samples.query(SampleQuerySpec(typeIdentifier: systolic, predicate: .noCorrelation), scope: visibility) { count += $0.count }
            return count
        case .statistics:
            return try database.statistics.samples(typeIdentifier: systolic, predicate: .noCorrelation, scope: visibility)
                .reduce(0) { $0 + $1.samples.count }
        case .changes:
            return try database.changeFeed.changes(of: systolic, matching: .noCorrelation, scope: visibility, after: .origin, limit: 0).added.count
        }
    }
}
