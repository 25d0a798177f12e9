import Foundation
import GRDB
import HealthModel
import Testing

@testable import HealthStore

/// Background-delivery registrations in an in-memory store.
@Suite(.timeLimit(.minutes(10))) struct BackgroundDeliveryRepositoryTests {
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let heartRate = "HKQuantityTypeIdentifierHeartRate"

    func database(apps: [String]) throws -> HealthDatabase {
        let database = try HealthDatabase(writer: try DatabaseQueue())
        for app in apps {
            try database.apps.install(AppManifest(id: app, displayName: app, executable: "/opt/\(app)", version: "1",
                                                  entitlements: [AppManifest.backgroundDeliveryEntitlement]))
        }
        return database
    }

    func registration(_ app: String, _ type: String, _ frequency: HKUpdateFrequency, at seconds: Double = 1_700_000_000) -> BackgroundDeliveryRegistration {
        BackgroundDeliveryRegistration(appID: app, typeIdentifier: type, frequency: frequency,
                                       enabledDate: Date(timeIntervalSince1970: seconds))
    }

    @Test func enablingAgainChangesTheFrequencyAndDisablingRemoves() throws {
        let database = try database(apps: ["org.a", "org.b"])
        let repository = database.backgroundDeliveries
        try repository.enable(registration("org.a", Self.steps, .immediate))
        try repository.enable(registration("org.a", Self.heartRate, .daily))
        try repository.enable(registration("org.b", Self.steps, .weekly))
        try repository.enable(registration("org.a", Self.steps, .hourly, at: 1_700_000_100))
        #expect(try repository.registrations(appID: "org.a") == [
            registration("org.a", Self.heartRate, .daily), registration("org.a", Self.steps, .hourly, at: 1_700_000_100),
        ])
        #expect(try repository.registrations().map(\.appID) == ["org.a", "org.a", "org.b"])

        #expect(try repository.disable(appID: "org.a", typeIdentifier: Self.steps) == 1)
        #expect(try repository.disable(appID: "org.a", typeIdentifier: Self.steps) == 0, "disabling twice is harmless")
        #expect(try repository.disable(appID: "org.a", typeIdentifier: nil) == 1)
        #expect(try repository.registrations().map(\.appID) == ["org.b"])
    }

    @Test func onlyInstalledAppsCanRegister() throws {
        let database = try database(apps: [])
        #expect(throws: DatabaseError.self) {
            try database.backgroundDeliveries.enable(registration("org.unknown", Self.steps, .immediate))
        }
    }
}
