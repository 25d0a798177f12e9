public import Foundation
import HealthModel
import HealthWire

/// HealthKit's `HKWorkoutEffortRelationshipQuery` (iOS 18): the workouts matching `predicate`
/// (a predicate on workouts) that have effort samples related to them, each as one
/// `HKWorkoutEffortRelationship` per workout or activity.
///
/// Difference from Apple's (README "Not yet as in HealthKit"): Apple's query is long-running and
/// answers from `anchor` on; this one answers once, with every relationship it can read, and
/// hands back an anchor that stands for "from the beginning" (`HKQueryAnchor(fromValue: 0)`):
/// passing it back gives the whole answer again rather than only the changes.
public final class HKWorkoutEffortRelationshipQuery: HKQuery, @unchecked Sendable {
    public typealias ResultsHandler = @Sendable (HKWorkoutEffortRelationshipQuery, [HKWorkoutEffortRelationship]?,
                                                 HKQueryAnchor?, (any Error)?) -> Void

    private let resultsHandler: ResultsHandler
    private let request: Result<WorkoutEffortQuery, HKError>

    @preconcurrency
    public init(predicate: NSPredicate?, anchor: HKQueryAnchor?, options: HKWorkoutEffortRelationshipQueryOptions,
                resultsHandler: @escaping ResultsHandler) {
        self.resultsHandler = resultsHandler
        request = Result { () throws(HKError) in
            WorkoutEffortQuery(predicate: try predicate.map { (predicate) throws(HKError) in try SamplePredicate(translating: predicate) },
                               mostRelevant: options == .mostRelevant)
        }
        super.init(objectType: HKObjectType.workoutType(), predicate: predicate)
    }

    override func start(on connection: BrokerConnection) {
        let started = lifecycle.start { [self] in
            do throws(HKError) {
                let relationships = try await connection.workoutEffortRelationships(try request.get())
                resultsHandler(self, relationships, HKQueryAnchor(fromValue: HKAnchoredObjectQueryNoAnchor), nil)
            } catch {
                resultsHandler(self, nil, nil, error)
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
