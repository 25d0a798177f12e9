@testable import HealthManagerCLI
import Testing

/// `healthctl import`'s summary counts refusals by reason, not by value: a thousand heart rates
/// out of range are one line with a count.
@Suite(.timeLimit(.minutes(10))) struct ImportTallyTests {
    @Test func refusalsOfOneKindAreCountedOnOneLine() {
        var tally = ImportTally()
        let type = "HKQuantityTypeIdentifierHeartRate"
        for value in [150.0, 162.0, 9000.0] {
            tally.refused(type, "\(type): value \(value) count/s is outside the allowed range 0.016666667 to 5 count/s")
        }
        tally.refused(type, "\(type): no value")
        #expect(tally.rows[type]?.refused == ["value is outside the allowed range 0.016666667 to 5 count/s": 3, "no value": 1])
        #expect(tally.refusedCount == 4)
    }
}
