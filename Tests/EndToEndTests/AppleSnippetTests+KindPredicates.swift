import Foundation
import Testing
import TestSupport

/// Issue 15's workout predicates as Apple documents them, against a real healthd
/// (Tests/EndToEndClient/KindPredicateSnippets.swift) holding KindPredicateEndToEndTests' four
/// imported workouts: running workouts of 29, 30 and 31 minutes and about 10 km, and a
/// 10-minute ride.
extension AppleSnippetTests {
    /// developer.apple.com/documentation/healthkit/hkquery/predicateforworkouts(with:duration:)
    /// ("equal to or longer than 30 minutes": the 30- and 31-minute runs),
    /// …/predicateforworkouts(with:totaldistance:) ("6.5 miles or more": none of the ~10 km runs,
    /// 6.5 mi being 10,460.7 m), …/predicateforworkouts(activitypredicate:) (the three runs) and
    /// the two combined with NSCompoundPredicate (the two long runs).
    @Test func workoutPredicatesWrittenAsAppleDocumentsThem() async throws {
        let (broker, app) = try await KindPredicateEndToEndTests.world()
        let result = try await broker.runApp(app, ["snippet", "workout-predicates"])
        #expect(result.okValue == "2 0 3 2", "\(result)")
    }
}
