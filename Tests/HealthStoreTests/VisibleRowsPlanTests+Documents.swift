import Foundation
import GRDB
import HealthModel
import Synchronization
import Testing

@testable import HealthStore

extension VisibleRowsPlanTests {
    /// HKDocumentQuery / a sample query of the CDA type (issue 15): every statement it runs —
    /// the visible rows under the scope, then each one's `documents` row by primary key — is
    /// bounded by the visible rows, with another source's (older) documents hidden in the store.
    @Test func documentReadsAreBoundedByVisibleRows() async throws {
        let writer = try DatabaseQueue()
        let database = try HealthDatabase(writer: writer)
        _ = try await Self.fill(database)
        let document = DocumentRepositoryTests.record(Data("<ClinicalDocument/>".utf8))
        // Before every window the scopes open, so hidden under each of them.
        var old = document
        old.startDate = VisibilityChokePointTests.start.addingTimeInterval(-3 * 86_400)
        old.endDate = old.startDate
        _ = try await database.samples.insert([old, old], source: VisibilityChokePointTests.other)
        _ = try await database.samples.insert([document], source: SourceRecord(bundleIdentifier: Self.reader, name: "Reader", version: "1"))
        for (scopeName, visibility) in Self.scopes {
            let statements = Mutex<[String]>([])
            writer.inDatabase { db in
                db.trace { event in
                    if case let .statement(statement) = event { statements.withLock { $0.append(statement.expandedSQL) } }
                }
            }
            var fetched = 0
            try database.samples.query(SampleQuerySpec(typeIdentifier: HKDocumentTypeIdentifier.CDA.rawValue), scope: visibility) {
                fetched += $0.count
            }
            writer.inDatabase { db in db.trace(nil) }
            #expect(fetched == 1, "\(scopeName): the reader's own document only")
            let reads = statements.withLock { $0 }.filter { $0.hasPrefix("SELECT") }
            #expect(reads.contains { $0.contains("FROM documents") }, "\(scopeName): no document lookup")
            for sql in reads {
                let steps = try await writer.read { db in try ChangeFeedQueryPlanTests.steps(db, sql) }
                for violation in Self.violations(steps) { Issue.record("documents, \(scopeName): \(violation)\n\(sql)") }
            }
        }
    }
}
