import Testing
@testable import HealthWire

@Suite(.timeLimit(.minutes(10))) struct KeyManagementMessagesTests {
    @Test func passcodesRoundTripAsBytesAndErase() throws {
        var sent = PasscodeCredentials(passcode: Array("old pin ü".utf8), newPasscode: Array("new pin".utf8))
        var payload = sent.wireBytes()
        var received = try PasscodeCredentials(wire: payload)
        #expect(received.passcode == sent.passcode)
        #expect(received.newPasscode == sent.newPasscode)

        received.erase()
        sent.erase()
        PasscodeCredentials.erase(&payload)
        #expect(received.passcode.count == Array("old pin ü".utf8).count && received.passcode.allSatisfy { $0 == 0 })
        #expect(sent.newPasscode.allSatisfy { $0 == 0 })
        #expect(payload.allSatisfy { $0 == 0 })
    }

    @Test func aRequestWithoutPasscodesDecodesToEmptyOnes() throws {
        let decoded = try PasscodeCredentials(wire: EmptyMessage().wireBytes())
        #expect(decoded.passcode.isEmpty && decoded.newPasscode.isEmpty)
    }

    @Test func keyStatusRoundTrips() throws {
        for passcodeSet in [false, true] {
            #expect(try KeyStatus(wire: KeyStatus(passcodeSet: passcodeSet).wireBytes()).passcodeSet == passcodeSet)
        }
    }
}
