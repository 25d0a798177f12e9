import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Privacy review, session 19, finding 3: an answer to a per-object request that adds and removes
/// no grant — the user refusing a document offer, allowing what the app already held — and a
/// revocation of an app that holds none must not move the app's grants mark (`VisibilityEpoch`),
/// which reads every answer of the app in flight again. The offer is listed (and so answered) only
/// when the app's document read is authorized and other apps hold documents it was not offered:
/// the re-read told it both. Failed before: every answer and revocation moved the mark twice.
@Suite(.timeLimit(.minutes(10))) struct ObjectGrantMarkTests {
    static let vision = HKVisionPrescriptionTypeIdentifier
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func onlyAnAnswerOrRevocationThatChangesAGrantMovesTheMark() async throws {
        // A reader id of this test's own: the epoch is process-wide, and other suites run beside it.
        let reader = "org.example.mark-reader-\(UUID().uuidString.lowercased())"
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(function: SampleSQL.uuidBlob) }
        let database = try HealthDatabase(writer: try DatabaseQueue(configuration: configuration))
        _ = try database.apps.install(AppManifest(id: reader, displayName: "Reader", executable: "/usr/bin/true", version: "1",
                                                  readUsageDescription: "r", shareUsageDescription: "s"))
        let installation = try #require(try database.apps.installation(id: reader))
        let saved = try await database.samples.insert([ObjectGrantVisibilityTests.prescription(-2)],
                                                      source: SourceRecord(bundleIdentifier: "org.example.other", name: "Other"))
        let object = try #require(saved.first)
        func mark() -> UInt64 { VisibilityEpoch.shared.mark(appID: reader).grants }
        func moves(_ change: () async throws -> Void) async throws -> Bool {
            let before = mark()
            try await change()
            return mark() != before
        }

        #expect(try await !moves { _ = try await database.objectGrants.answer(for: installation, decided: [object], allowed: [], at: Self.date) },
                "refused, nothing held: nothing changed")
        #expect(try await !moves { _ = try await database.objectGrants.revoke(appID: reader, uuids: nil) }, "no grant to revoke")
        #expect(try await !moves { _ = try await database.objectGrants.revoke(appID: reader, uuids: [object]) }, "no grant to revoke")
        // The controls: a grant added, one removed.
        #expect(try await moves { _ = try await database.objectGrants.answer(for: installation, decided: [object], allowed: [object], at: Self.date) })
        #expect(try await !moves { _ = try await database.objectGrants.answer(for: installation, decided: [object], allowed: [object], at: Self.date) },
                "allowed again, already held")
        #expect(try await moves { _ = try await database.objectGrants.answer(for: installation, decided: [object], allowed: [], at: Self.date) })
        #expect(try await moves { _ = try await database.objectGrants.answer(for: installation, decided: [object], allowed: [object], at: Self.date) })
        #expect(try await moves { _ = try await database.objectGrants.revoke(appID: reader, uuids: [object]) })
    }
}
