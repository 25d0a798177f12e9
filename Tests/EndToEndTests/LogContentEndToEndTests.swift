import Foundation
import HealthModel
import HealthWire
import Testing
import TestSupport

/// healthd's log never carries health values (SECURITY.md, "Health values in logs or errors"):
/// at its most verbose level (trace), an app saves a quantity and a metadata text no other
/// part of the run produces, reads them back, has a junk value refused, and the user lists the
/// samples with healthctl — and none of those values appears anywhere in healthd's log. The
/// refusal's text, which names the refused value, goes to the app alone.
@Suite(.timeLimit(.minutes(10)), .serialized) struct LogContentEndToEndTests {
    static let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
    static let savedValue = 123.456_789
    static let refusedValue = 98_765.432_1
    static let marker = "MARKER-7f3e9c"

    @Test func noSavedReadOrRefusedValueReachesTheLog() async throws {
        let broker = try BrokerProcess(extraArguments: ["--log-level", "trace"])
        let app = try await RawApp.install("org.test.logcontent", on: broker,
                                           grants: [("share", Self.heartRate), ("read", Self.heartRate)])
        defer { app.close() }
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func reading(_ value: Double) -> SampleRecord {
            SampleRecord(uuid: UUID(), typeIdentifier: Self.heartRate, startDate: start, endDate: start,
                         value: .quantity(value, unit: "count/min"), metadata: ["org.test.note": .string(Self.marker)])
        }
        #expect(try await app.save([reading(Self.savedValue)]).count == 1)
        let read = try await app.query(SampleQuerySpec(typeIdentifier: Self.heartRate))
        #expect(read.count == 1)
        let refusal = await app.saveRefusal([reading(Self.refusedValue)])
        #expect(refusal?.message.contains("98765.4321") == true, "the app is told its own value: \(String(describing: refusal))")
        let listed = try await broker.healthctl(["samples", Self.heartRate])
        #expect(listed.status == 0 && listed.stdout.contains("123.4"), "\(listed)")

        let log = broker.log
        #expect(log.contains("org.test.logcontent"), "the log is the one this run wrote: \(log)")
        for value in ["123.456789", "123.46", "98765.4321", "98765.43", Self.marker] {
            #expect(!log.contains(value), "\(value) is in healthd's log:\n\(log)")
        }
    }
}
