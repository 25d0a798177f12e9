import Foundation
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Types Apple never lets apps write (AppWritability: Apple-computed ones such as exercise time
/// and walking heart-rate average, correlation types, …) through a real healthd. HealthKit refuses
/// a share request naming them with "Authorization to share the following types is disallowed: …"
/// before any prompt; healthd refuses it the same way whatever the SDK sends, refuses an app's
/// save of them even when the SDK is bypassed, and lets no grant make them writable. The trusted
/// import path still brings them in (ActivitySummaryEndToEndTests).
@Suite(.serialized, .timeLimit(.minutes(10))) struct AppWritabilityEndToEndTests {
    let exercise = HKQuantityTypeIdentifier.appleExerciseTime.rawValue
    let walkingHeartRate = HKQuantityTypeIdentifier.walkingHeartRateAverage.rawValue
    let steps = HKQuantityTypeIdentifier.stepCount.rawValue
    let bloodPressure = HKCorrelationTypeIdentifier.bloodPressure.rawValue

    /// The SDK, as Apple-written code calls it: the request fails at once and nothing is asked.
    @Test func anSDKRequestToShareAnAppleComputedTypeFailsWithoutAPrompt() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.computedsharer")
        let refused = try await broker.runApp(app, ["request", "--share", exercise, "--share", steps, "--read", exercise], timeout: 20)
        #expect(refused.errorCode == 3, "\(refused)")  // errorInvalidArgument
        #expect(refused.stdout.contains("Authorization to share the following types is disallowed: \(exercise)\n"), "\(refused)")
        #expect(try await broker.healthctl(["requests"]).stdout.contains("No pending requests"))
    }

    /// A hand-made request (no SDK): healthd names every disallowed type and prompts for nothing.
    @Test func aRawRequestIsRefusedByHealthdNamingEveryDisallowedType() async throws {
        let broker = try BrokerProcess()
        let raw = try await RawApp.install("org.test.rawcomputed", on: broker, grants: [])
        defer { raw.close() }
        let refused = await raw.failure(.requestAuthorization,
                                        AuthorizationTypes(share: [steps, walkingHeartRate, bloodPressure], read: []))
        #expect(refused?.healthKitCode == .errorInvalidArgument, "\(String(describing: refused))")
        #expect(refused?.message.hasPrefix("Authorization to share the following types is disallowed: "
                                           + "\(bloodPressure), \(walkingHeartRate) (") == true, "\(String(describing: refused))")
        let status = await raw.failure(.getRequestStatus, AuthorizationTypes(share: [walkingHeartRate], read: []))
        #expect(status?.healthKitCode == .errorInvalidArgument, "\(String(describing: status))")
        #expect(try await broker.healthctl(["requests"]).stdout.contains("No pending requests"))
    }

    /// No grant makes the type writable: the manager refuses to grant it, and healthd refuses an
    /// app's save of it before looking at grants. Control: the same save of steps is accepted.
    @Test func anAppsSaveOfAnAppleComputedTypeIsRefusedAndNoGrantAllowsIt() async throws {
        let broker = try BrokerProcess()
        let raw = try await RawApp.install("org.test.rawsaver", on: broker, grants: [("share", steps)])
        defer { raw.close() }
        let grant = try await broker.healthctl(["grant", "org.test.rawsaver", "share", exercise])
        #expect(grant.status != 0, "\(grant)")
        #expect((grant.stdout + grant.stderr).contains("disallowed"), "\(grant)")

        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let minutes = SampleRecord(uuid: UUID(), typeIdentifier: exercise, startDate: start, endDate: start.addingTimeInterval(600),
                                   value: .quantity(10, unit: "min"))
        let refused = await raw.saveRefusal([minutes])
        #expect(refused?.healthKitCode == .errorInvalidArgument, "\(String(describing: refused))")
        #expect(refused?.message.hasSuffix(": \(exercise)") == true, "\(String(describing: refused))")
        // In a batch with a writable sample, the whole batch is refused.
        let stepsSample = SampleRecord(uuid: UUID(), typeIdentifier: steps, startDate: start, endDate: start.addingTimeInterval(600),
                                       value: .quantity(10, unit: "count"))
        #expect(await raw.saveRefusal([stepsSample, minutes]) != nil)
        #expect(try await raw.query(SampleQuerySpec(typeIdentifier: exercise)).isEmpty)

        #expect(try await raw.save([stepsSample]).count == 1)
    }
}
