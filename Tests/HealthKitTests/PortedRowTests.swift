import Foundation
import Testing
import HealthKit

/// Rows that public HealthKit code called and the SDK lacked (README, "Porting measurement").
///
/// `HKHealthStore.startWatchApp(with:completion:)` and `startWatchApp(toHandle:)` (iOS 10 / 15,
/// developer.apple.com/documentation/healthkit/hkhealthstore/startwatchapp(with:completion:)):
/// iPhone code that starts the watch's workout app (kvs-coder/HealthKitReporter calls it) compiles
/// unchanged. Linux has no paired watch, so it fails, with an error that says why, and a
/// configuration a session would refuse fails as the session does.
///
/// `CLLocation.floor` (developer.apple.com/documentation/corelocation/cllocation/floor: nil when
/// the floor is not known): route exporters read `location.floor?.level`; route locations carry
/// no floor, so it is nil.
///
/// `HKActivitySummaryQuery.updateHandler` in Swift 6 mode (this target's): HealthKitReporter gives
/// the initializer and the property the same non-Sendable closure value. With the property
/// `@Sendable` this file does not compile ("converting non-Sendable function value … may introduce
/// data races"); as `HKAnchoredObjectQuery.updateHandler`, it takes a plain closure.
@Suite(.timeLimit(.minutes(10))) struct PortedRowTests {
    static func running() -> HKWorkoutConfiguration {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = .running
        return configuration
    }

    @Test func theCompletionFormFailsWithoutAWatch() async {
        let (success, code): (Bool, Int?) = await withCheckedContinuation { continuation in
            HKHealthStore().startWatchApp(with: Self.running()) { success, error in
                continuation.resume(returning: (success, (error as? HKError)?.code.rawValue))
            }
        }
        #expect(!success)
        #expect(code == HKError.Code.errorHealthDataUnavailable.rawValue)
    }

    @Test func theAsyncFormThrowsTheSameError() async {
        #expect(await Self.code { try await HKHealthStore().startWatchApp(toHandle: Self.running()) }
                == HKError.Code.errorHealthDataUnavailable.rawValue)
    }

    /// The HKError code `work` throws; nil when it succeeds or throws something else.
    static func code(_ work: () async throws -> Void) async -> Int? {
        do {
            try await work()
            return nil
        } catch {
            return (error as? HKError)?.code.rawValue
        }
    }

    /// A pool swim without a lap length is refused by HKWorkoutSession; so it is here.
    @Test func anInvalidConfigurationIsRefusedAsASessionRefusesIt() async {
        let pool = HKWorkoutConfiguration()
        pool.activityType = .swimming
        pool.swimmingLocationType = .pool
        #expect(await Self.code { try await HKHealthStore().startWatchApp(toHandle: pool) }
                == HKError.Code.errorInvalidArgument.rawValue)
    }

    @Test func aRouteLocationHasNoFloor() {
        let location = CLLocation(coordinate: CLLocationCoordinate2D(latitude: 46.5, longitude: 6.6), altitude: 372,
                                  horizontalAccuracy: 5, verticalAccuracy: 3, course: 90, speed: 2.5,
                                  timestamp: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(location.floor?.level == nil)
    }

    /// Not Sendable, like the reader class that builds the query.
    final class SummaryReader {
        var summaries: [HKActivitySummary]?

        func makeQuery() -> HKActivitySummaryQuery {
            let resultsHandler: (HKActivitySummaryQuery, [HKActivitySummary]?, Error?) -> Void = { _, summaries, _ in
                self.summaries = summaries
            }
            let query = HKActivitySummaryQuery(predicate: nil, resultsHandler: resultsHandler)
            query.updateHandler = resultsHandler
            return query
        }
    }

    @Test func anActivitySummaryUpdateHandlerTakesTheInitializersClosure() throws {
        let reader = SummaryReader()
        let query = reader.makeQuery()
        let handler = try #require(query.updateHandler)
        handler(query, [HKActivitySummary()], nil)
        #expect(reader.summaries?.count == 1)
    }
}
