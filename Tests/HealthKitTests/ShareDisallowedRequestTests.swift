import Foundation
import HealthIPC
import HealthWire
import Synchronization
import Testing
@testable import HealthKit

/// A share set naming a type apps may never write is refused in the SDK, as HealthKit refuses it
/// (NSInvalidArgumentException "Authorization to share the following types is disallowed: …",
/// from HKHealthStore's `_throwIfAuthorizationDisallowedForSharing:types:`; see AppWritability
/// for the table and its sources): before anything reaches healthd, so no prompt is shown.
@Suite(.timeLimit(.minutes(10))) struct ShareDisallowedRequestTests {
    final class Calls: Sendable {
        let count = Mutex(0)
    }

    /// A fake healthd that counts calls and answers any request with success.
    func countingBroker(_ calls: Calls) throws -> FakeBroker {
        try FakeBroker { call in
            calls.count.withLock { $0 += 1 }
            if call.method == HealthStoreMethod.getRequestStatus.rawValue {
                call.responder.respond(StatusValue(HKAuthorizationRequestStatus.shouldRequest.rawValue).wireBytes())
            } else {
                call.responder.respond(EmptyMessage().wireBytes())
            }
        }
    }

    @Test func aShareSetWithAppleComputedAndCorrelationTypesFailsNamingEveryOneBeforeAnyCall() async throws {
        let calls = Calls()
        let broker = try countingBroker(calls)
        defer { broker.close() }
        let toShare: Set<HKSampleType> = [HKQuantityType(.stepCount), HKQuantityType(.appleExerciseTime),
                                          HKCategoryType(.appleStandHour), HKCorrelationType(.bloodPressure)]
        await #expect { try await broker.store.requestAuthorization(toShare: toShare, read: []) } throws: { error in
            guard let error = error as? HKError else { return false }
            return error.code == .errorInvalidArgument && error.message == "Authorization to share the following types is disallowed: "
                + "HKCategoryTypeIdentifierAppleStandHour, HKCorrelationTypeIdentifierBloodPressure, HKQuantityTypeIdentifierAppleExerciseTime"
        }
        await #expect(throws: HKError.self) { try await broker.store.getRequestStatusForAuthorization(toShare: toShare, read: []) }
        #expect(calls.count.withLock { $0 } == 0)
    }

    @Test(arguments: [HKQuantityType(.walkingHeartRateAverage), HKQuantityType(.appleStandTime), HKQuantityType(.appleMoveTime),
                      HKQuantityType(.appleWalkingSteadiness), HKQuantityType(.appleSleepingWristTemperature),
                      HKCategoryType(.highHeartRateEvent), HKCategoryType(.lowHeartRateEvent),
                      HKCategoryType(.irregularHeartRhythmEvent), HKCorrelationType(.food)] as [HKSampleType])
    func eachTypeAppleNeverLetsAppsWriteIsRefused(_ type: HKSampleType) async throws {
        let calls = Calls()
        let broker = try countingBroker(calls)
        defer { broker.close() }
        // Read permission for it stays requestable (the correlation type aside, as in HealthKit).
        await #expect { try await broker.store.requestAuthorization(toShare: [type], read: [type]) } throws: { error in
            (error as? HKError)?.message.hasSuffix("disallowed: \(type.identifier)") == true
        }
        #expect(calls.count.withLock { $0 } == 0)
    }

    /// The control: the same store sends a request whose share set holds writable types only.
    @Test func aShareSetOfWritableTypesReachesTheBroker() async throws {
        let calls = Calls()
        let broker = try countingBroker(calls)
        defer { broker.close() }
        try await broker.store.requestAuthorization(toShare: [HKQuantityType(.stepCount), HKQuantityType(.bloodPressureSystolic)],
                                                    read: [HKQuantityType(.appleExerciseTime)])
        #expect(calls.count.withLock { $0 } == 1)
    }
}
