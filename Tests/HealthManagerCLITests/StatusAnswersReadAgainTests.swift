import Foundation
@testable import HealthManagerCLI
import HealthWire
import Testing

/// `healthctl status`'s "Answers read again" row (StatusResponse field 91): how many stalled
/// multi-frame answers healthd read again because an object their reader could see left the store
/// or its grants changed (SECURITY.md "A second reading is bounded by the first"). The end-to-end
/// suites that hold answers up count readings again by this row (`VisibleDeletionRereadEndToEndTests`,
/// `WorkoutEffortRereadEndToEndTests`), so it must carry healthd's number as sent, extremes included.
@Suite(.timeLimit(.minutes(10))) struct StatusAnswersReadAgainTests {
    static func row(_ count: Int) throws -> String {
        let status = BrokerStatus(storeDirectory: "/s", appSocket: "/a", adminSocket: "/m", installedApps: 0, pendingRequests: 0,
                                  connectedApps: 0, sampleCount: 0, version: "0", answersReadAgain: count)
        let received = try BrokerStatus(wire: status.wireBytes())
        let row = StatusCommand.render(received).split(separator: "\n").first { $0.hasPrefix("Answers read again:") }
        // The value after the label's colon and the padding that aligns the rows.
        return try #require(row.map { String($0.drop { $0 != ":" }.dropFirst().drop { $0 == " " }) }, "no 'Answers read again' row")
    }

    @Test(arguments: [0, 1, 91, Int(UInt32.max) + 1, Int.max])
    func theCountHealthdSentIsPrinted(_ count: Int) throws {
        #expect(try Self.row(count) == "\(count)")
    }

    /// A negative count never leaves healthd (it counts up from 0); clamped on the wire, it
    /// prints as 0 rather than as a huge unsigned number.
    @Test func aNegativeCountPrintsAsZero() throws {
        #expect(try Self.row(-1) == "0")
    }
}
