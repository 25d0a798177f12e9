import Foundation
import GRDB
import HealthModel
import HealthStore
import Testing

@testable import HealthBroker

/// A correlation type's read scope, as every read kind but the correlation query itself gets
/// it (anchored, observer, background delivery, sources): the narrowest of its member types'
/// scopes, one member's grant varied at a time. A correlation type takes no grant of its own.
@Suite(.timeLimit(.minutes(10))) struct CorrelationReadScopeTests {
    static let systolic = HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue
    static let diastolic = HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue
    static let bloodPressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let app = AppManifest(id: "org.example.cuff", displayName: "Cuff", executable: "/usr/bin/cuff", version: "1",
                                 readUsageDescription: "reads", shareUsageDescription: "writes")
    static let own = ReadScope.ownSamples(appID: app.id)

    static func scope(_ grants: [GrantDecision], of type: String = bloodPressure) throws -> ReadScope {
        let database = try HealthDatabase(writer: DatabaseQueue())
        _ = try database.apps.install(app)
        try database.grants.apply(appID: app.id, grants, at: now)
        return try AuthorizationEngine(grants: database.grants, now: { now }).readScope(app: app, type: type).scope
    }

    static func read(_ type: String, _ decision: AuthorizationDecision, window: TimeInterval? = nil) -> GrantDecision {
        GrantDecision(type, .read, decision, limits: GrantLimits(dataWindow: window))
    }

    @Test func bothHalvesReadableSeesEverySource() throws {
        #expect(try Self.scope([Self.read(Self.systolic, .authorized), Self.read(Self.diastolic, .authorized)]) == .allSources)
    }

    @Test(arguments: [systolic, diastolic])
    func oneHalfDeniedSeesOnlyItsOwn(denied: String) throws {
        let other = denied == Self.systolic ? Self.diastolic : Self.systolic
        #expect(try Self.scope([Self.read(other, .authorized), Self.read(denied, .denied)]) == Self.own)
        // Never asked reads like denied.
        #expect(try Self.scope([Self.read(other, .authorized)]) == Self.own)
        // The member type itself keeps its own, wider scope.
        #expect(try Self.scope([Self.read(other, .authorized), Self.read(denied, .denied)], of: other) == .allSources)
    }

    @Test func aWindowOnOneHalfNarrowsTheCorrelation() throws {
        let day: TimeInterval = 86_400
        #expect(try Self.scope([Self.read(Self.systolic, .authorized), Self.read(Self.diastolic, .authorized, window: 30 * day)])
                == .recentWindow(appID: Self.app.id, since: Self.now.addingTimeInterval(-30 * day)))
        // Two windows meet in the later start.
        #expect(try Self.scope([Self.read(Self.systolic, .authorized, window: 7 * day), Self.read(Self.diastolic, .authorized, window: 30 * day)])
                == .recentWindow(appID: Self.app.id, since: Self.now.addingTimeInterval(-7 * day)))
    }

    @Test func aMealNeedsEveryDietaryType() throws {
        let dietary = CorrelationRules.memberTypes(of: HKCorrelationTypeIdentifier.food.rawValue).map(\.identifier)
        let all = dietary.map { Self.read($0, .authorized) }
        #expect(try Self.scope(all, of: HKCorrelationTypeIdentifier.food.rawValue) == .allSources)
        #expect(try Self.scope(Array(all.dropLast()), of: HKCorrelationTypeIdentifier.food.rawValue) == Self.own)
    }
}
