import Foundation
import HealthModel
import HealthWire
import Testing
@testable import HealthBroker

/// An import's source comes from the export file the user picked, which anyone may have written:
/// its origin, source name and version are bounded in characters and bytes (`TextBound`) before
/// they become a source of the store. A name of one character with megabytes of combining marks,
/// and a version of any length, were accepted before (session 11 red team).
@Suite(.timeLimit(.minutes(10))) struct ImportSourceBoundTests {
    static let manyMarks = "e" + String(repeating: "\u{301}", count: 5_000)

    func source(origin: String = "Apple Health", name: String = "Watch", version: String? = "10.1") throws(HKError) -> SourceRecord {
        try ImportService.source(of: ImportBatch(origin: origin, sourceName: name, sourceVersion: version, samples: []))
    }

    @Test func theSourceOfAnImportIsBoundedInBytes() throws {
        #expect(try source().bundleIdentifier == "@import/Apple Health/Watch")
        for (what, attempt) in [
            ("origin", { () throws(HKError) in _ = try source(origin: Self.manyMarks) }),
            ("source name", { () throws(HKError) in _ = try source(name: Self.manyMarks) }),
            ("source version", { () throws(HKError) in _ = try source(version: Self.manyMarks) }),
            ("source version", { () throws(HKError) in _ = try source(version: String(repeating: "9", count: 65)) }),
        ] as [(String, () throws(HKError) -> Void)] {
            do {
                try attempt()
                Issue.record("\(what): accepted")
            } catch {
                #expect(error.message.contains(what), "\(what): \(error.message)")
            }
        }
    }
}
