import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// A step through the change feed from a cursor inside a change seeks straight to the next row
/// (the rest of that change, then later changes), rather than walking again over the rows of
/// the change it already delivered.
@Suite(.timeLimit(.minutes(10))) struct FeedRangeTests {
    @Test func theRangesAfterACursorFollowTheFeedOrder() {
        let inside = ChangeCursor(change: 7, table: .objects, row: 40)
        #expect(FeedRange.after(inside, in: .objects) == [.restOfChange(change: 7, afterRow: 40), .laterChanges(after: 7)])
        #expect(FeedRange.after(inside, in: .deletedObjects) == [.laterChanges(after: 7)])
        let amongDeletions = ChangeCursor(change: 7, table: .deletedObjects, row: 3)
        #expect(FeedRange.after(amongDeletions, in: .deletedObjects) == [.restOfChange(change: 7, afterRow: 3), .laterChanges(after: 7)])
        #expect(FeedRange.after(amongDeletions, in: .objects) == [.restOfChange(change: 7, afterRow: Int64.min), .laterChanges(after: 7)])
        #expect(FeedRange.after(ChangeCursor(completeThrough: 7), in: .objects) == [.laterChanges(after: 7)])
        #expect(FeedRange.after(ChangeCursor(completeThrough: 7), in: .deletedObjects) == [.laterChanges(after: 7)])
    }

    @Test func aStepInsideAChangeSeeksToItsNextRow() async throws {
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer)
        let source = ChangeFeedRepositoryTests.source("a")
        _ = try await database.samples.insert((0..<10).map { ChangeFeedRepositoryTests.sample(minute: $0) }, source: source)
        let first = try database.changeFeed.changes(of: ChangeFeedRepositoryTests.sleep, matching: nil, scope: .allSources,
                                                    after: .origin, limit: 4)
        #expect(!first.reachedEnd)
        for scope in [Visibility.allSources, ChangeFeedRepositoryTests.own] {
            let plans = try ChangeFeedQueryPlanTests.plans(writer) {
                let next = try database.changeFeed.changes(of: ChangeFeedRepositoryTests.sleep, matching: nil, scope: scope,
                                                           after: first.cursor, limit: 4)
                #expect(next.added.count == 4)
            }
            let seeks = plans.values.joined().filter { $0.contains("change_seq=? AND rowid>?") }
            #expect(seeks.count == 1, "\(plans)")
        }
    }
}
