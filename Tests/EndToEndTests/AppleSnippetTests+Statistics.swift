import Foundation
import HealthModel
import Testing
import TestSupport

/// Statistics queries written as Apple's Swift signatures allow, against a real healthd
/// (Tests/EndToEndClient/StatisticsSnippets.swift).
extension AppleSnippetTests {
    /// developer.apple.com/documentation/healthkit/hkstatisticsquery/init(quantitytype:quantitysamplepredicate:options:completionhandler:)
    /// and …/hkstatisticscollectionquery/init(quantitytype:quantitysamplepredicate:options:anchordate:intervalcomponents:)
    /// declare `options: HKStatisticsOptions = []`: code that leaves `options:` out compiles
    /// (the snippet would not build otherwise) and runs. With no option nothing is computed,
    /// so the sum is nil where the same query with `.cumulativeSum` sums the three samples.
    @Test func statisticsQueriesWithoutOptionsRunAndComputeNothing() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-statistics-options")
        try await twoAppsWithSteps(broker, app: app)
        let result = try await broker.runApp(app, ["snippet", "statistics-without-options"])
        #expect(result.okValue == "nil/300.0 nil/300.0 1/1", "\(result)")
    }
}
