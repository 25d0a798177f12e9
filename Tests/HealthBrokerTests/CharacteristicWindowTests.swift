import Foundation
import HealthModel
import Testing

@testable import HealthBroker

/// A data window on a characteristic is refused: the only date a characteristic has is when the
/// user last set it, so a window would show or hide the value by that instant — revealing it.
@Suite(.timeLimit(.minutes(10))) struct CharacteristicWindowTests {
    @Test func aWindowedReadGrantOfACharacteristicIsRefused() {
        let grant = GrantDecision(HKCharacteristicTypeIdentifier.bloodType.rawValue, .read, .authorized,
                                  limits: GrantLimits(dataWindow: 30 * 86_400))
        #expect {
            try GrantLimitsCheck.check([grant], now: Date())
        } throws: { error in
            (error as? HKError)?.code == .errorInvalidArgument && "\(error)".contains("a characteristic has no date")
        }
    }

    @Test func anExpiringReadGrantOfACharacteristicIsFine() throws {
        let grant = GrantDecision(HKCharacteristicTypeIdentifier.bloodType.rawValue, .read, .authorized,
                                  limits: GrantLimits(expiry: Date().addingTimeInterval(60)))
        try GrantLimitsCheck.check([grant], now: Date())
    }
}
