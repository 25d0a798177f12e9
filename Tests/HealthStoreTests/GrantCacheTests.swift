import Foundation
import HealthModel
import Testing

@testable import HealthStore

/// Grants answered from memory (issue 17) must never outlive a change: the store's own grant
/// reads after `apply` see the change at once, and a load that raced a change is not kept.
@Suite(.timeLimit(.minutes(10))) struct GrantCacheTests {
    static let app = "org.example.app"
    static let steps = HKQuantityTypeIdentifier.stepCount.rawValue

    @Test func aRevocationIsSeenByTheVeryNextRead() throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        let database = try HealthDatabase(writer: store.writer)
        _ = try database.apps.install(AppManifest(id: Self.app, displayName: "App", executable: "/usr/bin/true", version: "1"))
        try database.grants.apply(appID: Self.app, [GrantDecision(Self.steps, .read, .authorized)])
        // Read twice: the second answer comes from memory.
        #expect(try database.grants.decision(appID: Self.app, type: Self.steps, access: .read) == .authorized)
        #expect(try database.grants.decision(appID: Self.app, type: Self.steps, access: .read) == .authorized)
        try database.grants.apply(appID: Self.app, [GrantDecision(Self.steps, .read, .denied)])
        #expect(try database.grants.decision(appID: Self.app, type: Self.steps, access: .read) == .denied)
        try database.grants.apply(appID: Self.app, [GrantDecision(Self.steps, .read, .notDetermined)])
        #expect(try database.grants.decision(appID: Self.app, type: Self.steps, access: .read) == .notDetermined)
    }

    @Test func anAppsGrantsAreReadFromTheStoreOnce() throws {
        let cache = GrantCache()
        var loads = 0
        for _ in 0..<3 {
            let grants = try cache.grants(appID: Self.app) {
                loads += 1
                return [GrantDecision(Self.steps, .share, .authorized)]
            }
            #expect(grants[GrantCache.Key(type: Self.steps, access: .share)]?.decision == .authorized)
        }
        #expect(loads == 1)
    }

    @Test func aLoadThatRacedAChangeIsNotKept() throws {
        let cache = GrantCache()
        // The change commits (and invalidates) while this load is reading the old rows.
        let stale = try cache.grants(appID: Self.app) {
            cache.invalidate(appID: Self.app)
            return [GrantDecision(Self.steps, .read, .authorized)]
        }
        #expect(stale.count == 1)
        let fresh = try cache.grants(appID: Self.app) { [GrantDecision(Self.steps, .read, .denied)] }
        #expect(fresh[GrantCache.Key(type: Self.steps, access: .read)]?.decision == .denied)
    }

    @Test func anotherAppsChangeLeavesThisAppCached() throws {
        let cache = GrantCache()
        var loads = 0
        let load = {
            loads += 1
            return [GrantDecision(Self.steps, .read, .authorized)]
        }
        _ = try cache.grants(appID: Self.app, load: load)
        cache.invalidate(appID: "org.example.other")
        _ = try cache.grants(appID: Self.app, load: load)
        #expect(loads == 1)
    }
}
