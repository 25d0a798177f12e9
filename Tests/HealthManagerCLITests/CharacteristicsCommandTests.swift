import Foundation
import HealthIPC
import HealthManagerCLI
import HealthModel
import HealthWire
import Synchronization
import Testing

/// `healthctl characteristics show|set|unset` against a fake healthd.
@Suite(.timeLimit(.minutes(10))) struct CharacteristicsCommandTests {
    static let dateOfBirth = HKCharacteristicTypeIdentifier.dateOfBirth.rawValue
    static let bloodType = HKCharacteristicTypeIdentifier.bloodType.rawValue

    static func broker() throws -> FakeManagerServer {
        try FakeManagerServer { call in
            switch HealthManagerMethod(rawValue: call.method) {
            case .setCharacteristic:
                call.responder.respond(EmptyMessage().wireBytes())
            case .listCharacteristics:
                call.responder.respond(CharacteristicList([
                    CharacteristicRecord(typeIdentifier: HKCharacteristicTypeIdentifier.biologicalSex.rawValue, value: .enumeration(1)),
                    CharacteristicRecord(typeIdentifier: bloodType, value: .enumeration(6)),
                    CharacteristicRecord(typeIdentifier: dateOfBirth, value: .day(CalendarDay(year: 1984, month: 3, day: 2)!)),
                    CharacteristicRecord(typeIdentifier: HKCharacteristicTypeIdentifier.fitzpatrickSkinType.rawValue, value: .enumeration(3)),
                    CharacteristicRecord(typeIdentifier: HKCharacteristicTypeIdentifier.wheelchairUse.rawValue, value: nil),
                    CharacteristicRecord(typeIdentifier: HKCharacteristicTypeIdentifier.activityMoveMode.rawValue, value: .enumeration(2)),
                ]).wireBytes())
            default:
                call.responder.fail(RPCStatus(.unimplemented, call.method), streaming: false)
            }
        }
    }

    @Test func showListsEveryCharacteristicInWords() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = await runHealthCtl(["characteristics", "show", "--socket", server.socketPath])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == """
            CHARACTERISTIC         VALUE
            Biological Sex         female
            Blood Type             AB-
            Date Of Birth          1984-03-02
            Fitzpatrick Skin Type  III
            Wheelchair Use         not set
            Activity Move Mode     move-time

            """)
    }

    @Test func setSendsTheValueForEachSpelling() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let cases: [([String], CharacteristicRecord, String)] = [
            (["date-of-birth", "1984-03-02"],
             CharacteristicRecord(typeIdentifier: Self.dateOfBirth, value: .day(CalendarDay(year: 1984, month: 3, day: 2)!)),
             "Set Date Of Birth to 1984-03-02.\n"),
            (["bloodType", "ab-"], CharacteristicRecord(typeIdentifier: Self.bloodType, value: .enumeration(6)),
             "Set Blood Type to AB-.\n"),
            (["HKCharacteristicTypeIdentifierBiologicalSex", "Female"],
             CharacteristicRecord(typeIdentifier: HKCharacteristicTypeIdentifier.biologicalSex.rawValue, value: .enumeration(1)),
             "Set Biological Sex to female.\n"),
            (["fitzpatrick-skin-type", "5"],
             CharacteristicRecord(typeIdentifier: HKCharacteristicTypeIdentifier.fitzpatrickSkinType.rawValue, value: .enumeration(5)),
             "Set Fitzpatrick Skin Type to V.\n"),
            (["wheelchairUse", "yes"],
             CharacteristicRecord(typeIdentifier: HKCharacteristicTypeIdentifier.wheelchairUse.rawValue, value: .enumeration(2)),
             "Set Wheelchair Use to yes.\n"),
            (["activityMoveMode", "active-energy"],
             CharacteristicRecord(typeIdentifier: HKCharacteristicTypeIdentifier.activityMoveMode.rawValue, value: .enumeration(1)),
             "Set Activity Move Mode to active-energy.\n"),
        ]
        for (arguments, _, message) in cases {
            let outcome = await runHealthCtl(["characteristics", "set", "--socket", server.socketPath] + arguments)
            #expect(outcome.exitCode == 0, "\(outcome.errors)")
            #expect(outcome.output == message)
        }
        let sent = try server.payloads(for: .setCharacteristic).map(CharacteristicRecord.init(wire:))
        #expect(sent == cases.map(\.1))
    }

    @Test func unsetSendsNoValue() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let outcome = await runHealthCtl(["characteristics", "unset", "--socket", server.socketPath, "blood-type"])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == "Cleared Blood Type.\n")
        let sent = try server.payloads(for: .setCharacteristic).map(CharacteristicRecord.init(wire:))
        #expect(sent == [CharacteristicRecord(typeIdentifier: Self.bloodType, value: nil)])
    }

    @Test func aWrongValueListsTheValidOnesAndSendsNothing() async throws {
        let server = try Self.broker()
        defer { server.stop() }
        let cases = [
            (["biologicalSex", "purple"], "'purple' is not a valid biological sex; use one of: female, male, other"),
            (["bloodType", "C+"], "'C+' is not a valid blood type; use one of: A+, A-, B+, B-, AB+, AB-, O+, O-"),
            (["fitzpatrickSkinType", "VII"], "'VII' is not a valid fitzpatrick skin type; use one of: I, II, III, IV, V, VI"),
            (["wheelchairUse", "sometimes"], "'sometimes' is not a valid wheelchair use; use one of: no, yes"),
            (["activityMoveMode", "steps"], "'steps' is not a valid activity move mode; use one of: active-energy, move-time"),
            (["dateOfBirth", "02/03/1984"], "'02/03/1984' is not a valid date of birth; use YYYY-MM-DD, e.g. 1984-03-02"),
        ]
        for (arguments, message) in cases {
            let outcome = await runHealthCtl(["characteristics", "set", "--socket", server.socketPath] + arguments)
            #expect(outcome.exitCode == HealthCtlExitCode.usage.rawValue)
            #expect(outcome.errors.contains(message), "\(outcome.errors)")
        }
        let notACharacteristic = await runHealthCtl(["characteristics", "set", "--socket", server.socketPath, "heartRate", "60"])
        #expect(notACharacteristic.exitCode == HealthCtlExitCode.usage.rawValue)
        #expect(notACharacteristic.errors.contains("unknown health type 'heartRate'"), "\(notACharacteristic.errors)")
        #expect(server.payloads(for: .setCharacteristic).isEmpty)
    }
}
