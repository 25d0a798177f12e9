import Foundation
import HealthWire
import Testing
import TestSupport

/// `HKHealthStore.isHealthDataAvailable()` in a separate app process: true when healthd can be
/// reached (launched by health-sandbox, or dialling a live app socket), false when it cannot.
@Suite(.timeLimit(.minutes(10))) struct HealthDataAvailabilityTests {
    let snippet = ["snippet", "health-data-available"]

    @Test func availableToASandboxedAppWithARunningBroker() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.available")
        let run = try await broker.runApp(app, snippet)
        #expect(run.okValue == "available", "\(run)")
    }

    /// The same executable dialling the app socket by path: live → true; once healthd has
    /// stopped, and at a path where nothing ever listened → false.
    @Test func unavailableOnceNothingAnswersAtTheAppSocket() async throws {
        let broker = try BrokerProcess()
        let live = [LaunchEnvironment.appSocketPathVariable: broker.appSocket]
        let before = try await ProcessRun.run(BrokerProcess.clientExecutable, snippet, environment: live)
        #expect(before.okValue == "available", "control: a live socket: \(before)")
        broker.stop()
        let after = try await ProcessRun.run(BrokerProcess.clientExecutable, snippet, environment: live)
        #expect(after.okValue == "unavailable", "\(after)")
        let nowhere = [LaunchEnvironment.appSocketPathVariable: broker.root + "/never-listened/app.sock"]
        let never = try await ProcessRun.run(BrokerProcess.clientExecutable, snippet, environment: nowhere)
        #expect(never.okValue == "unavailable", "\(never)")
    }
}
