import Foundation

extension NSCompoundPredicate {
    /// This compound predicate as a tree of the SDK's own predicates, its subpredicates
    /// translated by `operand`: AND and OR of all of them, NOT of exactly one. The one reading of
    /// `NSCompoundPredicate` that both the sample predicate (`SamplePredicate(translating:)`) and
    /// the workout-activity predicate (`WorkoutActivityTest(translating:)`) use.
    func translated<Tree>(_ operand: (NSPredicate) throws(HKError) -> Tree, and: ([Tree]) -> Tree, or: ([Tree]) -> Tree,
                          not: (Tree) -> Tree) throws(HKError) -> Tree {
        let operands = try subpredicates.map { (subpredicate) throws(HKError) in try operand(subpredicate) }
        switch compoundPredicateType {
        case .and: return and(operands)
        case .or: return or(operands)
        case .not:
            guard operands.count == 1 else {
                throw HKError(.errorInvalidArgument, "a NOT predicate needs exactly one subpredicate, got \(operands.count)")
            }
            return not(operands[0])
        @unknown default:
            throw HKError(.errorInvalidArgument, "unsupported NSCompoundPredicate type \(compoundPredicateType.rawValue)")
        }
    }
}
