public import Foundation
import HealthModel
import HealthWire
import Synchronization

/// HealthKit's `HKWorkoutEffortRelationshipQuery` (iOS 18): the workouts matching `predicate`
/// (a predicate on workouts) that have effort samples related to them, each as one
/// `HKWorkoutEffortRelationship` per workout or activity.
///
/// As Apple's header states it (HKWorkoutEffortRelationshipQuery.h): "This is a long running
/// query and it is the responsibility of the caller to stop the query after they have received
/// the results they desire. The first call to resultsHandler will contain the inital results
/// which may be empty and future callbacks will contain new relationships as well as any
/// changes to previous relationships along with a new anchor." With an `anchor` from an earlier
/// answer the initial results hold only the relationships that changed since; nil starts from
/// the beginning. A changed relationship is handed out as it is now: a sample unrelated or
/// deleted leaves it with the samples that remain, possibly none (`samples` empty). A deleted
/// workout's relationships are not handed out again (there is no workout left to hand out; an
/// `HKAnchoredObjectQuery` of workouts reports the deletion). Everything is under the app's read
/// permissions, at each delivery: a change the app cannot see causes no callback.
///
/// The anchor is sealed by healthd for this app and this query (SECURITY.md): an anchored object
/// query's anchor is refused here with `errorInvalidArgument`, and the other way round.
public final class HKWorkoutEffortRelationshipQuery: HKQuery, @unchecked Sendable {
    public typealias ResultsHandler = @Sendable (HKWorkoutEffortRelationshipQuery, [HKWorkoutEffortRelationship]?,
                                                 HKQueryAnchor?, (any Error)?) -> Void

    private let resultsHandler: ResultsHandler
    private let request: Result<WorkoutEffortQuery, HKError>

    @preconcurrency
    public convenience init(predicate: NSPredicate?, anchor: HKQueryAnchor?, options: HKWorkoutEffortRelationshipQueryOptions,
                            resultsHandler: @escaping ResultsHandler) {
        self.init(predicate: predicate, anchor: anchor, options: options, longRunning: true, resultsHandler: resultsHandler)
    }

    /// `longRunning` false: one answer, then the query ends (the descriptor's `result(for:)`).
    init(predicate: NSPredicate?, anchor: HKQueryAnchor?, options: HKWorkoutEffortRelationshipQueryOptions, longRunning: Bool,
         resultsHandler: @escaping ResultsHandler) {
        self.resultsHandler = resultsHandler
        request = Result { () throws(HKError) in
            try Self.request(predicate: predicate, anchor: anchor, options: options, longRunning: longRunning)
        }
        super.init(objectType: HKObjectType.workoutType(), predicate: predicate)
    }

    /// The request healthd answers, for this query and for its descriptor's `results(for:)`.
    static func request(predicate: NSPredicate?, anchor: HKQueryAnchor?, options: HKWorkoutEffortRelationshipQueryOptions,
                        longRunning: Bool) throws(HKError) -> WorkoutEffortQuery {
        WorkoutEffortQuery(predicate: try predicate.map { (predicate) throws(HKError) in try SamplePredicate(translating: predicate) },
                           mostRelevant: options == .mostRelevant, anchor: anchor?.bytes ?? [], longRunning: longRunning)
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            let delivered = Mutex(false)
            do throws(HKError) {
                let request = try request.get()
                try await connection.workoutEffortDeliveries(request) { delivery in
                    // A one-answer query answers once, whatever happens to the stream after.
                    let first = delivered.withLock { delivered in
                        defer { delivered = true }
                        return !delivered
                    }
                    guard first || request.longRunning else { return }
                    resultsHandler(self, delivery.relationships, delivery.anchor, nil)
                }
            } catch {
                // Once results are out, a stopped query ends quietly, and a one-answer query has
                // answered; a long-running one hands other errors on.
                let answered = delivered.withLock { $0 }
                let longRunning = (try? request.get())?.longRunning ?? false
                if !answered || (longRunning && error.code != .errorUserCanceled) {
                    resultsHandler(self, nil, nil, error)
                }
            }
        }
        if !started {
            Task { [self] in
                resultsHandler(self, nil, nil, HKError(.errorInvalidArgument,
                    "this HKWorkoutEffortRelationshipQuery was already executed or stopped; create a new query to run it again"))
            }
        }
    }
}
