import Foundation
import HealthModel
import HealthStore

/// Confines the workouts a read's predicate names (`predicateForObjects(from: workout)`) to the
/// workouts the reader may see. Without it, a reader allowed to read steps but not workouts
/// could learn which steps another app associated with one of its workouts. A workout outside
/// the reader's workout scope is replaced by a node that matches nothing — what the predicate
/// would match if that workout did not exist.
enum WorkoutPredicateScope {
    static func confine(_ spec: SampleQuerySpec, app: AppManifest, in database: HealthDatabase) throws -> SampleQuerySpec {
        guard let predicate = spec.predicate else { return spec }
        let named = workouts(in: predicate)
        guard !named.isEmpty else { return spec }
        let scope = try database.authorization.readScope(app: app, type: HKWorkoutTypeIdentifier)
        let visible = try database.samples.visibleWorkouts(named, scope: scope)
        var confined = spec
        confined.predicate = replacing(predicate, hiddenFrom: visible)
        return confined
    }

    private static func workouts(in predicate: SamplePredicate) -> Set<UUID> {
        switch predicate {
        case let .workout(uuid): [uuid]
        case let .and(operands), let .or(operands): operands.reduce(into: []) { $0.formUnion(workouts(in: $1)) }
        case let .not(operand): workouts(in: operand)
        default: []
        }
    }

    private static func replacing(_ predicate: SamplePredicate, hiddenFrom visible: Set<UUID>) -> SamplePredicate {
        switch predicate {
        case let .workout(uuid) where !visible.contains(uuid): .uuids([])  // matches nothing
        case let .and(operands): .and(operands.map { replacing($0, hiddenFrom: visible) })
        case let .or(operands): .or(operands.map { replacing($0, hiddenFrom: visible) })
        case let .not(operand): .not(replacing(operand, hiddenFrom: visible))
        default: predicate
        }
    }
}
