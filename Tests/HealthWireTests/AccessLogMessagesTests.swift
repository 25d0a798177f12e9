import Foundation
import HealthModel
import Testing
@testable import HealthWire

@Suite(.timeLimit(.minutes(10))) struct AccessLogMessagesTests {
    @Test func entriesRoundTripWithAndWithoutAnApp() throws {
        let entries = [
            AccessLogEntry(sequence: 1, date: Date(microsecondsSince1970: 1_700_000_000_123_456), actor: "manager",
                           appID: nil, action: "read", types: ["HKQuantityTypeIdentifierHeartRate"], count: 3, detail: ""),
            AccessLogEntry(sequence: 2, date: Date(microsecondsSince1970: 1_700_000_001_000_000), actor: "org.app",
                           appID: "org.app", action: "request", types: ["a", "b"], count: 0, detail: "share 1, read 1"),
        ]
        #expect(try AccessLogPage(wire: AccessLogPage(entries).wireBytes()).entries == entries)
        #expect(try AccessLogQuery(wire: AccessLogQuery(appID: nil, limit: 0).wireBytes()) == AccessLogQuery())
    }

    @Test(arguments: [AccessLogVerification.intact(entries: 0), .intact(entries: 42),
                      .damaged(AccessLogDamage(sequence: 5, kind: .editedEntry)),
                      .damaged(AccessLogDamage(sequence: 6, kind: .brokenChain)),
                      .damaged(AccessLogDamage(sequence: 7, kind: .missingEntry)),
                      .damaged(AccessLogDamage(sequence: 8, kind: .headMismatch))])
    func verificationRoundTrips(_ verification: AccessLogVerification) throws {
        #expect(try AccessLogVerificationMessage(wire: AccessLogVerificationMessage(verification).wireBytes()).verification == verification)
    }
}
