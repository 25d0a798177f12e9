import Foundation
@testable import HealthKit
import Testing

/// Issue 15's HKHealthStore rows that involve no stored data:
/// developer.apple.com/documentation/healthkit/hkhealthstore/recoveractiveworkoutsession(completion:)
/// (`async throws -> HKWorkoutSession?`: nothing to recover is nil),
/// …/recalibrateestimates(sampletype:date:completion:) with …/hksampletype/allowsrecalibrationforestimates,
/// and …/handleauthorizationforextension(completion:) ("success … whether the user responded to
/// the prompt (if any)"). None opens a connection: the store here points at no healthd.
@Suite(.timeLimit(.minutes(10))) struct HealthStoreRecoveryTests {
    static func store() -> HKHealthStore {
        HKHealthStore(connection: BrokerConnection(environment: ["OPENHEALTH_APP_SOCKET": "/nonexistent/openhealth-test.sock"]))
    }

    @Test func noWorkoutSessionOutlivesItsProcessSoNoneIsRecovered() async throws {
        #expect(try await Self.store().recoverActiveWorkoutSession() == nil)
        let (session, error) = await withCheckedContinuation { continuation in
            Self.store().recoverActiveWorkoutSession { session, error in continuation.resume(returning: (session, error)) }
        }
        #expect(session == nil && error == nil)
    }

    @Test func onlyTheSixMinuteWalkDistanceAllowsRecalibration() {
        let allowing = HKObjectType.allTypes.compactMap { $0 as? HKSampleType }.filter(\.allowsRecalibrationForEstimates)
        #expect(allowing.map(\.identifier) == [HKQuantityTypeIdentifier.sixMinuteWalkTestDistance.rawValue])
    }

    @Test func recalibrationChecksHealthKitsPreconditions() async throws {
        let store = Self.store()
        try await store.recalibrateEstimates(sampleType: HKQuantityType(.sixMinuteWalkTestDistance), date: Date())
        for (type, date) in [(HKQuantityType(.vo2Max), Date()), (HKQuantityType(.sixMinuteWalkTestDistance), Date().addingTimeInterval(3600))] {
            let error = await #expect(throws: HKError.self) { try await store.recalibrateEstimates(sampleType: type, date: date) }
            #expect(error?.code == .errorInvalidArgument, "\(type.identifier)")
        }
        let (success, error) = await withCheckedContinuation { continuation in
            store.recalibrateEstimates(sampleType: HKQuantityType(.stepCount), date: Date()) { continuation.resume(returning: ($0, $1)) }
        }
        #expect(!success && (error as? HKError)?.code == .errorInvalidArgument)
    }

    @Test func extensionAuthorizationCompletesAsAnsweredAtOnce() async throws {
        let (success, error) = await withCheckedContinuation { continuation in
            Self.store().handleAuthorizationForExtension { continuation.resume(returning: ($0, $1)) }
        }
        #expect(success && error == nil)
    }
}
