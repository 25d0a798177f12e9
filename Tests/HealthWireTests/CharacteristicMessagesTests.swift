import HealthModel
import Testing
@testable import HealthWire

@Suite(.timeLimit(.minutes(10))) struct CharacteristicMessagesTests {
    @Test func everyValueKindRoundTrips() throws {
        let records = [
            CharacteristicRecord(typeIdentifier: HKCharacteristicTypeIdentifier.dateOfBirth.rawValue,
                                 value: .day(CalendarDay(year: 1984, month: 3, day: 2)!)),
            CharacteristicRecord(typeIdentifier: HKCharacteristicTypeIdentifier.bloodType.rawValue, value: .enumeration(5)),
            CharacteristicRecord(typeIdentifier: HKCharacteristicTypeIdentifier.wheelchairUse.rawValue, value: nil),
        ]
        for record in records {
            #expect(try CharacteristicRecord(wire: record.wireBytes()) == record)
        }
        #expect(try CharacteristicList(wire: CharacteristicList(records).wireBytes()).characteristics == records)
    }

    @Test func aDayThatDoesNotExistIsRefused() throws {
        // Characteristic{type: "t", day: CalendarDay{year: 2023, month: 2, day: 30}}
        let bytes: [UInt8] = [0x0A, 0x01, 0x74, 0x1A, 0x07, 0x08, 0xE7, 0x0F, 0x10, 0x02, 0x18, 0x1E]
        #expect(throws: WireDecodeError.invalidField("characteristic date is not a day of the Gregorian calendar")) {
            try CharacteristicRecord(wire: bytes)
        }
    }
}
