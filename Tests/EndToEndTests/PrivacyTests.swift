import Foundation
import Testing

/// DESIGN.md §7 through the whole stack: a real healthd, apps as real processes under
/// health-sandbox using the SDK, the user acting through healthctl.
@Suite(.timeLimit(.minutes(10)), .serialized) struct PrivacyTests {
    let heartRate = "HKQuantityTypeIdentifierHeartRate"
    let steps = "HKQuantityTypeIdentifierStepCount"

    @Test func aRequestWaitsForTheUserAndTheGrantTakesEffect() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.granted")
        async let request = broker.runApp(app, ["request", "--share", heartRate, "--read", heartRate])

        // The prompt reaches the manager while the app waits.
        let pending = try await broker.healthctl(["requests", "--wait", "--timeout", "30"])
        #expect(pending.status == 0, "\(pending)")
        #expect(pending.stdout.contains(app))
        let answer = try await broker.healthctl(["requests", "--id", "1", "--allow-all"])
        #expect(answer.status == 0, "\(answer)\n\(broker.log)")
        let requested = try await request
        #expect(requested.okValue == "requested", "\(requested)")

        #expect(try await broker.runApp(app, ["status", heartRate]).okValue == "2")  // sharingAuthorized
        let saved = try await broker.runApp(app, ["save", heartRate, "72", "count/min", "1700000000", "1700000000"])
        #expect(saved.okValue != nil, "\(saved)")
        let read = try await broker.runApp(app, ["query", heartRate, "--unit", "count/min"])
        #expect(read.samples.map(\.value) == [72])
        #expect(read.samples.first?.source == app)
    }

    @Test func withoutReadPermissionAnAppSeesOnlyWhatItSavedItself() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.writer")
        let reader = try await broker.installClient("org.test.reader")
        let control = try await broker.installClient("org.test.control")
        for app in [writer, reader, control] { try await broker.set(app, "share", heartRate, allowed: true) }
        try await broker.set(reader, "read", heartRate, allowed: false)
        try await broker.set(control, "read", heartRate, allowed: true)

        for (app, value, time) in [(writer, "60", 1_700_000_000), (writer, "61", 1_700_000_100), (reader, "90", 1_700_000_050)] {
            let saved = try await broker.runApp(app, ["save", heartRate, value, "count/min", "\(time)", "\(time)"])
            #expect(saved.okValue != nil, "\(saved)")
        }
        let denied = try await broker.runApp(reader, ["query", heartRate, "--unit", "count/min"])
        #expect(denied.samples.map(\.value) == [90])
        #expect(denied.okValue == "1")
        let granted = try await broker.runApp(control, ["query", heartRate, "--unit", "count/min"])
        #expect(granted.samples.map(\.value) == [60, 90, 61])

        // Limits and predicates apply to the visible part only: the same as a store holding
        // just the reader's sample.
        let limited = try await broker.runApp(reader, ["query", heartRate, "--limit", "1", "--start", "1700000000", "--end", "1700000200", "--unit", "count/min"])
        #expect(limited.samples.map(\.value) == [90])
    }

    @Test func deniedAndNeverAskedReadLookTheSameToTheApp() async throws {
        let broker = try BrokerProcess()
        let writer = try await broker.installClient("org.test.owner")
        let denied = try await broker.installClient("org.test.denied")
        let neverAsked = try await broker.installClient("org.test.neverasked")
        try await broker.set(writer, "share", steps, allowed: true)
        try await broker.set(denied, "read", steps, allowed: false)
        _ = try await broker.runApp(writer, ["save", steps, "500", "count", "1700000000", "1700000600"])

        let fromDenied = try await broker.runApp(denied, ["query", steps])
        let fromNeverAsked = try await broker.runApp(neverAsked, ["query", steps])
        #expect(fromDenied.stdout == fromNeverAsked.stdout)
        #expect(fromDenied.stdout == "ok 0\n")
        // The status call reports sharing only: both say "not determined".
        #expect(try await broker.runApp(denied, ["status", steps]).okValue == "0")
        #expect(try await broker.runApp(neverAsked, ["status", steps]).okValue == "0")
    }

    @Test func authorizationStatusReportsSharingOnly() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.status")
        try await broker.set(app, "read", heartRate, allowed: true)
        #expect(try await broker.runApp(app, ["status", heartRate]).okValue == "0")  // read grant invisible
        try await broker.set(app, "share", heartRate, allowed: false)
        #expect(try await broker.runApp(app, ["status", heartRate]).okValue == "1")
        try await broker.set(app, "share", heartRate, allowed: true)
        #expect(try await broker.runApp(app, ["status", heartRate]).okValue == "2")
    }

    @Test func savingWithoutSharePermissionFailsWithHealthKitsCodes() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.nosave")
        let notDetermined = try await broker.runApp(app, ["save", heartRate, "70", "count/min", "1700000000", "1700000000"])
        #expect(notDetermined.errorCode == 5, "\(notDetermined)")  // errorAuthorizationNotDetermined
        try await broker.set(app, "share", heartRate, allowed: false)
        let denied = try await broker.runApp(app, ["save", heartRate, "70", "count/min", "1700000000", "1700000000"])
        #expect(denied.errorCode == 4, "\(denied)")  // errorAuthorizationDenied
        let listing = try await broker.healthctl(["samples", heartRate, "--json"])
        #expect(listing.stdout.isEmpty, "nothing may have been stored: \(listing)")
    }

    @Test func aRequestForDecidedTypesReturnsAtOnceWhateverTheDecision() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.decided")
        try await broker.set(app, "read", heartRate, allowed: false)
        try await broker.set(app, "read", steps, allowed: true)
        // No prompt is created, so these return without anyone answering.
        let request = try await broker.runApp(app, ["request", "--read", heartRate, "--read", steps], timeout: 20)
        #expect(request.okValue == "requested", "\(request)")
        #expect(try await broker.runApp(app, ["request-status", "--read", heartRate]).okValue == "2")  // unnecessary
        let pending = try await broker.healthctl(["requests"])
        #expect(pending.stdout.contains("No pending requests"), "\(pending)")
    }

    @Test func aRequestWithoutTheUsageDescriptionNamesTheMissingKey() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.nousage", read: false, share: true)
        let result = try await broker.runApp(app, ["request", "--read", heartRate], timeout: 20)
        #expect(result.errorCode == 3, "\(result)")  // errorInvalidArgument
        #expect(result.stdout.contains("NSHealthShareUsageDescription"))
    }
}
