/// What a State of Mind predicate tests (`HKQuery.predicateForStatesOfMind…`): the kind, the
/// valence against a number, or whether a label or association is among the sample's.
public enum StateOfMindTest: Hashable, Sendable {
    /// `predicateForStatesOfMind(with: HKStateOfMind.Kind)`: the kind's raw value.
    case kind(Int)
    /// `predicateForStatesOfMind(withValence:predicateOperatorType:)`: valence `op` value.
    case valence(ComparisonOperator, Double)
    /// `predicateForStatesOfMind(with: HKStateOfMind.Label)`: samples holding this label.
    case label(Int)
    /// `predicateForStatesOfMind(with: HKStateOfMind.Association)`: samples holding this association.
    case association(Int)

    /// The reference semantics the store's SQL must agree with.
    public func matches(_ value: StateOfMindValue) -> Bool {
        switch self {
        case let .kind(kind): value.kind == kind
        case let .valence(op, number): op.evaluate(value.valence, number)
        case let .label(label): value.labels.contains(label)
        case let .association(association): value.associations.contains(association)
        }
    }
}
