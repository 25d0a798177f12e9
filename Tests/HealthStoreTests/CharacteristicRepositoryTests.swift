import Foundation
import HealthModel
import Testing

@testable import HealthStore

/// Characteristics on a real encrypted store: set, replaced, cleared, and confined by scope.
@Suite(.timeLimit(.minutes(10))) struct CharacteristicRepositoryTests {
    let bloodType = HKCharacteristicTypeIdentifier.bloodType.rawValue
    let dateOfBirth = HKCharacteristicTypeIdentifier.dateOfBirth.rawValue

    static func withStore(_ body: (HealthDatabase) throws -> Void) throws {
        let directory = TemporaryDirectory()
        let store = try EncryptedDatabase.open(directory: directory.path)
        try body(try HealthDatabase(writer: store.writer))
        try store.close()
    }

    @Test func aValueIsSetReplacedAndCleared() throws {
        try Self.withStore { database in
            let characteristics = database.characteristics
            #expect(try characteristics.value(of: bloodType, scope: .allSources) == nil)
            try characteristics.set(CharacteristicRecord(typeIdentifier: bloodType, value: .enumeration(1)))
            try characteristics.set(CharacteristicRecord(typeIdentifier: bloodType, value: .enumeration(8)))
            let day = CalendarDay(year: 1984, month: 3, day: 2)!
            try characteristics.set(CharacteristicRecord(typeIdentifier: dateOfBirth, value: .day(day)))
            #expect(try characteristics.value(of: bloodType, scope: .allSources) == .enumeration(8))
            #expect(try characteristics.all() == [bloodType: .enumeration(8), dateOfBirth: .day(day)])

            try characteristics.set(CharacteristicRecord(typeIdentifier: bloodType, value: nil))
            #expect(try characteristics.value(of: bloodType, scope: .allSources) == nil)
            #expect(try characteristics.all() == [dateOfBirth: .day(day)])
        }
    }

    @Test func anAppsOwnScopeNeverFindsTheUsersValues() throws {
        try Self.withStore { database in
            try database.characteristics.set(CharacteristicRecord(typeIdentifier: bloodType, value: .enumeration(3)))
            #expect(try database.characteristics.value(of: bloodType, scope: .ownSamples(appID: "org.example.app")) == nil)
            // Not even an app that claims the user's source id, which no manifest can carry.
            #expect(!AppManifest(id: CharacteristicRepository.userSource.bundleIdentifier, displayName: "x",
                                 executable: "/x", version: "1").problems.isEmpty)
        }
    }
}
