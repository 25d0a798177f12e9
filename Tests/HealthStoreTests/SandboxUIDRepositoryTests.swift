import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Each app's sandbox uid (`AppRepository.sandboxUID`): in `AppSandboxIDRange`, one per app,
/// the same at every launch and across reinstalls, never given to another app.
@Suite(.timeLimit(.minutes(10))) struct SandboxUIDRepositoryTests {
    func install(_ id: String, executable: String? = nil, in database: HealthDatabase) throws {
        try database.apps.install(AppManifest(id: id, displayName: id, executable: executable ?? "/opt/\(id)", version: "1",
                                              entitlements: []))
    }

    @Test func eachAppGetsItsOwnStableUIDInTheRange() throws {
        let database = try HealthDatabase(writer: try DatabaseQueue())
        try install("org.a", in: database)
        try install("org.b", in: database)
        let first = try #require(try database.apps.sandboxUID(appID: "org.a"))
        let second = try #require(try database.apps.sandboxUID(appID: "org.b"))
        #expect(first == AppSandboxIDRange.first)
        #expect(second == AppSandboxIDRange.first + 1)
        #expect(try database.apps.sandboxUID(appID: "org.a") == first, "asking again gives the same number")
        // A reinstall with another executable keeps the number: the folder it owns is the app id's.
        try install("org.a", executable: "/opt/other", in: database)
        #expect(try database.apps.sandboxUID(appID: "org.a") == first)
        #expect(try database.apps.sandboxUID(appID: "org.unknown") == nil, "no number for an app that is not installed")
    }

    @Test func aNumberIsNeverGivenToAnotherAppAndTheRangeEndIsRefused() throws {
        let database = try HealthDatabase(writer: try DatabaseQueue())
        try install("org.a", in: database)
        _ = try database.apps.sandboxUID(appID: "org.a")
        // Even with the app's row gone, its number stays taken.
        try database.writer.write { try $0.execute(sql: "DELETE FROM apps WHERE id = 'org.a'") }
        try install("org.b", in: database)
        #expect(try database.apps.sandboxUID(appID: "org.b") == AppSandboxIDRange.first + 1)
        // The last number given: the next app is refused, not wrapped around or put outside the range.
        try database.writer.write {
            try $0.execute(sql: "INSERT INTO app_sandbox_ids (app_id, uid, assigned_us) VALUES ('org.last', ?, 0)",
                           arguments: [Int64(AppSandboxIDRange.last)])
        }
        try install("org.c", in: database)
        #expect(throws: AppRepository.SandboxIDsExhausted.self) { try database.apps.sandboxUID(appID: "org.c") }
    }
}
