import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// `VisibleDeletions`: whether a deletion after a change number removed an object a scope admits
/// — the question a stalled stream asks before it reads again (privacy review, session 18, finding
/// 3). A deletion the scope hides must answer no, or whether an answer is read again tells its
/// reader that someone deleted something. Generated: each scope kind × where the deleted object
/// lies (the reader's own, another source's inside or before a window, another type), each deletion
/// after the change number asked about and, the control, before it.
@Suite(.timeLimit(.minutes(10))) struct VisibleDeletionsTests {
    static let reader = "org.example.reader"
    static let other = "org.example.other"
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    /// The window's start: 2023-11-15 00:00 UTC.
    static let since = Date(timeIntervalSince1970: 1_700_006_400)

    enum Scope: String, CaseIterable, CustomTestStringConvertible {
        case own, window, all
        var testDescription: String { rawValue }
        var scope: ReadScope {
            switch self {
            case .own: .ownSamples(appID: VisibleDeletionsTests.reader)
            case .window: .recentWindow(appID: VisibleDeletionsTests.reader, since: VisibleDeletionsTests.since)
            case .all: .allSources
            }
        }
    }

    enum Deleted: String, CaseIterable, CustomTestStringConvertible {
        case ownBeforeWindow = "the reader's own, before the window"
        case otherInsideWindow = "another source's, inside the window"
        case otherBeforeWindow = "another source's, before the window"
        case otherType = "another source's, of a type the answer does not read"
        var testDescription: String { rawValue }

        var source: String { self == .ownBeforeWindow ? VisibleDeletionsTests.reader : VisibleDeletionsTests.other }
        var type: String { self == .otherType ? VisibleDeletionsTests.heartRate : VisibleDeletionsTests.steps }
        var start: Date { self == .otherInsideWindow || self == .otherType ? since.addingTimeInterval(3_600) : since.addingTimeInterval(-3_600) }

        /// Whether `scope` admits the deleted object, for an answer of steps.
        func visible(to scope: Scope) -> Bool {
            guard self != .otherType else { return false }
            switch scope {
            case .own: return self == .ownBeforeWindow
            case .window: return self != .otherBeforeWindow
            case .all: return true
            }
        }
    }

    @Test(arguments: Scope.allCases, Deleted.allCases)
    func onlyADeletionTheScopeAdmitsCounts(_ scope: Scope, _ deleted: Deleted) async throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        let source = SourceRecord(bundleIdentifier: deleted.source, name: "Source", version: "1")
        let unit = deleted.type == Self.heartRate ? "count/min" : "count"
        let record = SampleRecord(uuid: UUID(), typeIdentifier: deleted.type, startDate: deleted.start, endDate: deleted.start.addingTimeInterval(60),
                                  value: .quantity(80, unit: unit))
        let uuid = try #require(try await database.samples.insert([record], source: source).first)
        let before = try Self.changeNumber(database)
        #expect(try Self.anyLeft(database, scope, after: before) == false, "\(scope), \(deleted): nothing was deleted yet")
        let count = try await database.samples.delete([ObjectReference(typeIdentifier: deleted.type, uuid: uuid)], appID: deleted.source)
        try #require(count == 1)
        let found = try Self.anyLeft(database, scope, after: before)
        #expect(found == deleted.visible(to: scope), "\(scope), \(deleted): found \(found)")
        // The control: a deletion before the change number asked about never counts.
        let after = try Self.changeNumber(database)
        #expect(try Self.anyLeft(database, scope, after: after) == false,
                "\(scope), \(deleted): a deletion before the change number asked about counted")
    }

    static func changeNumber(_ database: HealthDatabase) throws -> Int64 {
        try database.writer.read { try ReadSnapshot.changeNumber($0) }
    }

    /// Whether a deletion after `change` removed a step sample `scope` admits.
    static func anyLeft(_ database: HealthDatabase, _ scope: Scope, after change: Int64) throws -> Bool {
        try database.writer.read { try VisibleDeletions.anyLeft($0, of: [steps: scope.scope], after: change) }
    }

    /// A store without a side connection cannot ask: it answers yes, a needless reading again.
    @Test func withoutASideConnectionEveryDeletionCounts() throws {
        let database = try HealthDatabase(writer: DatabaseQueue())
        #expect(try database.visibleDeletions.anyLeft(of: [Self.steps: .ownSamples(appID: Self.reader)], after: 0))
    }
}
