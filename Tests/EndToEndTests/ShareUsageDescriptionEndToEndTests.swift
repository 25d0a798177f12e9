import Foundation
import Testing
import TestSupport

/// The share side of the usage-description rule (issue 19.2): a request to *write* a type by an
/// app whose manifest has no NSHealthUpdateUsageDescription is refused naming that key, as the
/// read side is (PrivacyTests). Control: the same app's read request is not refused for it.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ShareUsageDescriptionEndToEndTests {
    let heartRate = "HKQuantityTypeIdentifierHeartRate"

    @Test func aShareRequestWithoutTheUpdateUsageDescriptionNamesTheMissingKey() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.noupdateusage", read: true, share: false)
        let refused = try await broker.runApp(app, ["request", "--share", heartRate], timeout: 20)
        #expect(refused.errorCode == 3, "\(refused)")  // errorInvalidArgument
        #expect(refused.stdout.contains("NSHealthUpdateUsageDescription"), "\(refused)")
        #expect(try await broker.healthctl(["requests"]).stdout.contains("No pending requests"))

        let read = try await broker.runApp(app, ["request", "--read", heartRate], timeout: 5)
        #expect(!read.stdout.contains("NSHealthUpdateUsageDescription"), "a read request was refused for the share key: \(read)")
    }
}
