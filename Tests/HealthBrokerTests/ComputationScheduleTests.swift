@testable import HealthBroker
import HealthModel
import HealthWire
import Testing

/// Every app method's work that grows with the data runs where `ComputationSchedule` says, and
/// that is how `CallDispatcher` runs it (`MethodTable.cost` of the method's requests): a method
/// whose work reads many rows for one app cannot run beside the query slots unnoticed, as the
/// watches did until session 18 (one app's 24 watches computed at once on the shared pool).
/// The switch in `ComputationSchedule.of` has no default, so a new `HealthStoreMethod` does not
/// build until it is decided; this checks the decision against the dispatcher's.
@Suite(.timeLimit(.minutes(10))) struct ComputationScheduleTests {
    @Test(arguments: HealthStoreMethod.allCases)
    func eachAppMethodRunsWhereItsScheduleSays(_ method: HealthStoreMethod) throws {
        let handler = try #require(MethodTable.app[method.rawValue], "\(method.rawValue) is not served")
        let applied = Self.requests(of: method).map { ComputationSchedule.applied(for: MethodTable.cost(of: method.rawValue, payload: $0)) }
        switch ComputationSchedule.of(method) {
        case .wholeCallInASlot:
            #expect(applied == [.wholeCallInASlot], "\(method.rawValue) is dispatched as \(applied)")
        case .eachStoreVisitInASlot:
            #expect(applied == [.eachStoreVisitInASlot], "\(method.rawValue) is dispatched as \(applied)")
        case .asItsRequestSays:
            #expect(applied == [.wholeCallInASlot, .eachStoreVisitInASlot], "\(method.rawValue) is dispatched as \(applied)")
        case let .bounded(bound):
            #expect(applied == [nil], "\(method.rawValue) claims to be bounded (\(bound)) but is dispatched as \(applied)")
            // An answer in many frames grows with the data by its nature.
            if case .stream = handler { Issue.record("\(method.rawValue) streams its answer but claims to be bounded (\(bound))") }
        }
    }

    /// Requests that tell the method's kinds of call apart: a finite and a long-running one for
    /// the two methods whose request decides; any bytes for the others.
    static func requests(of method: HealthStoreMethod) -> [[UInt8]] {
        let steps = HKQuantityTypeIdentifier.stepCount.rawValue
        switch method {
        case .queryAnchored:
            return [false, true].map { AnchoredQuerySpec(descriptors: [TypePredicateSpec(typeIdentifier: steps)], longRunning: $0).wireBytes() }
        case .queryWorkoutEffortRelationships:
            return [false, true].map { WorkoutEffortQuery(predicate: nil, mostRelevant: false, longRunning: $0).wireBytes() }
        default:
            return [[]]
        }
    }
}
