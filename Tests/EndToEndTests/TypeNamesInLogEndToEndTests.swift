import Foundation
import Testing
import TestSupport

/// healthd's log goes to the user's journal, unencrypted and readable by `adm` and
/// `systemd-journal` members; DESIGN.md §5 keeps type names off the disk, and a type name such
/// as a pregnancy test result is health information. A changed preferred unit, characteristic or
/// source order is logged without its type. Before, all three were logged at notice level with
/// the type identifier (storage review, session 18, named the first two); this test failed on all three.
@Suite(.timeLimit(.minutes(10))) struct TypeNamesInLogEndToEndTests {
    @Test func unitAndCharacteristicChangesAreLoggedWithoutTheirType() async throws {
        let broker = try BrokerProcess()
        for command in [["units", "set", "bodyMass", "lb"], ["characteristics", "set", "bloodType", "A+"],
                        ["sources", "priority", "bodyMass", "--reset"]] {
            let result = try await broker.healthctl(command)
            #expect(result.status == 0, "\(command): \(result)")
        }
        let log = broker.log
        #expect(log.contains("preferred unit changed") && log.contains("characteristic changed")
                    && log.contains("source priority changed"), "\(log)")
        for name in ["HKQuantityTypeIdentifierBodyMass", "HKCharacteristicTypeIdentifierBloodType", "bodyMass", "bloodType"] {
            #expect(!log.contains(name), "\(name) reached healthd's log:\n\(log)")
        }
    }
}
