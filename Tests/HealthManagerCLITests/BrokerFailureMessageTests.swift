import HealthManagerCLI
import HealthModel
import HealthWire
import Testing

/// healthctl says "lost healthd" only when the connection itself failed; an UNAVAILABLE that
/// healthd sent (the lock's drain did not finish, healthd out of descriptors) is healthd's own
/// refusal and is shown as such (session 19 review, noticed: `healthctl lock` said "lost healthd"
/// when healthd refused the lock; this test failed before the fix).
@Suite(.timeLimit(.minutes(10))) struct BrokerFailureMessageTests {
    @Test(arguments: [
        RPCStatus(HKError(.errorDatabaseInaccessible,
                          "2 call(s) using the store did not finish within 30 seconds (a slow reader?); nothing was changed, try again")),
        RPCStatus(.unavailable, "healthd is out of descriptors; try again"),
        RPCStatus(.unavailable, "healthd is still starting; try again"),
    ])
    func healthdsOwnRefusalIsNotALostHealthd(status: RPCStatus) {
        let text = HealthCtlError.brokerFailed(action: "lock the store", status: status).description
        #expect(text == "healthd could not lock the store: \(status.message)")
    }

    @Test(arguments: ["healthd closed the connection", "connection to healthd failed: ECONNRESET", "cannot send to healthd: EPIPE"])
    func aFailedConnectionIsALostHealthd(message: String) {
        let text = HealthCtlError.brokerFailed(action: "lock the store", status: RPCStatus(.unavailable, message)).description
        #expect(text == "lost healthd while trying to lock the store: \(message)")
    }
}
