import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Red team, session 23, F6: an object's UUID is RFC 9562 version 7 and its 48-bit time field is
/// the object's own start date in whole milliseconds (`UUIDv7.make(startingAt:)`), never the
/// moment healthd stored it. Before, every UUID carried the millisecond of the save, so an app
/// reading another app's sample learned when that app saved it (a weight dated 30 days ago,
/// saved last night), which HealthKit never tells: an `HKObject` has a UUID and no creation date.
/// The rule, tested as it reaches an app — the saver's answer, another app's query, a locked
/// save answered from the pending journal and merged at unlock: every id is a function of the
/// object's start date and randomness only, so ids of one start date saved at different times
/// share their time field and cannot be ordered by when they were saved.
@Suite(.timeLimit(.minutes(10))) struct ObjectUUIDTimeEndToEndTests {
    static let bodyMass = HKQuantityTypeIdentifier.bodyMass.rawValue
    static let energy = HKQuantityTypeIdentifier.dietaryEnergyConsumed.rawValue
    static let protein = HKQuantityTypeIdentifier.dietaryProtein.rawValue
    /// 2025-10-29 10:58:38.553 UTC: long before any clock this test runs under.
    static let dated = Date(timeIntervalSince1970: 1_761_735_518.553)
    static let datedMilliseconds: UInt64 = 1_761_735_518_553

    static func milliseconds(_ uuid: UUID) -> UInt64 {
        withUnsafeBytes(of: uuid.uuid) { bytes in bytes[0..<6].reduce(0) { $0 << 8 | UInt64($1) } }
    }

    static func version(_ uuid: UUID) -> UInt8 { uuid.uuid.6 >> 4 }

    static func weight(_ kilograms: Double, at date: Date = dated) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: bodyMass, startDate: date, endDate: date, value: .quantity(kilograms, unit: "kg"))
    }

    /// A meal whose samples start a second and two seconds after the correlation.
    static func food() -> SampleRecord {
        let members = [(energy, 500.0, "kcal", 1.0), (protein, 20.0, "g", 2.0)].map { type, value, unit, offset in
            SampleRecord(uuid: UUID(), typeIdentifier: type, startDate: dated.addingTimeInterval(offset),
                         endDate: dated.addingTimeInterval(offset), value: .quantity(value, unit: unit))
        }
        return SampleRecord(uuid: UUID(), typeIdentifier: HKCorrelationTypeIdentifier.food.rawValue, startDate: dated,
                            endDate: dated.addingTimeInterval(2), value: .correlation(members))
    }

    func expectDated(_ uuids: [UUID], _ expected: [UInt64], _ what: String) {
        #expect(uuids.map(Self.milliseconds) == expected, "\(what): \(uuids)")
        #expect(uuids.allSatisfy { Self.version($0) == 7 }, "\(what): \(uuids)")
    }

    @Test func aReaderLearnsTheStartDateFromAnIdNeverWhenItWasSaved() async throws {
        let broker = try BrokerProcess()
        let writer = try await RawApp.install("org.test.uuid-writer", on: broker,
                                              grants: [Self.bodyMass, Self.energy, Self.protein].map { ("share", $0) })
        defer { writer.close() }
        let first = try await writer.save([Self.weight(69)])
        // The same start date saved later: the same time field, so the two cannot be ordered.
        try await Task.sleep(for: .milliseconds(50))
        let second = try await writer.save([Self.weight(70)])
        expectDated(first + second, [Self.datedMilliseconds, Self.datedMilliseconds], "the saver's answers")
        #expect(first != second)
        // A correlation and its samples: each object's own start date.
        let meal = try await writer.save([Self.food()])
        expectDated(meal, [Self.datedMilliseconds, Self.datedMilliseconds + 1_000, Self.datedMilliseconds + 2_000],
                    "a correlation and its samples")

        // Another app (a sandboxed SDK client) reading body mass gets the same ids.
        let reader = try await broker.installClient("org.test.uuid-reader")
        try await broker.set(reader, "read", Self.bodyMass, allowed: true)
        let query = try await broker.runApp(reader, ["query", Self.bodyMass])
        let read = query.lines.filter { $0.hasPrefix("sample ") }.compactMap { UUID(uuidString: String($0.split(separator: " ")[1])) }
        #expect(Set(read) == Set(first + second), "\(query)")
        expectDated(read, [Self.datedMilliseconds, Self.datedMilliseconds], "another app's query")
    }

    /// A save while the store is locked is answered with ids minted then (`StoreHandle.save`,
    /// the pending journal) and the merge gives the objects those ids: minted by the same rule.
    @Test func aLockedSaveIsAnsweredAndMergedWithIdsOfItsStartDate() async throws {
        let broker = try BrokerProcess()
        let writer = try await RawApp.install("org.test.uuid-locked", on: broker,
                                              grants: [("share", Self.bodyMass), ("read", Self.bodyMass)])
        defer { writer.close() }
        let lock = try await broker.healthctl(["lock"])
        #expect(lock.status == 0, "\(lock)")
        let answered = try await writer.save([Self.weight(69), Self.weight(70, at: Self.dated.addingTimeInterval(60))])
        expectDated(answered, [Self.datedMilliseconds, Self.datedMilliseconds + 60_000], "answered while locked")
        let unlock = try await broker.healthctl(["unlock"])
        #expect(unlock.status == 0 && unlock.stdout.contains("merged"), "\(unlock)")
        let stored = try await writer.query(SampleQuerySpec(typeIdentifier: Self.bodyMass))
        #expect(Set(stored.map(\.uuid)) == Set(answered), "merged under the ids it was answered with")
    }
}
