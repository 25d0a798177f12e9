import GRDB
import HealthModel

extension SampleSQL {
    /// A State of Mind predicate as an EXISTS correlated to the visible row `o` by its key
    /// (each side table's primary key starts with `object_id`), so it is evaluated only for
    /// rows the Visibility condition already admits and costs one index probe per row.
    static func stateOfMindCondition(_ test: StateOfMindTest) -> (sql: String, arguments: StatementArguments) {
        switch test {
        case let .kind(kind):
            return ("EXISTS (SELECT 1 FROM states_of_mind sm WHERE sm.object_id = o.id AND sm.kind = ?)", [kind])
        case let .valence(op, number):
            return ("EXISTS (SELECT 1 FROM states_of_mind sm WHERE sm.object_id = o.id AND sm.valence \(op.sqlOperator) ?)", [number])
        case let .label(label):
            return ("EXISTS (SELECT 1 FROM state_of_mind_labels sl WHERE sl.object_id = o.id AND sl.label = ?)", [label])
        case let .association(association):
            return ("EXISTS (SELECT 1 FROM state_of_mind_associations sa WHERE sa.object_id = o.id AND sa.association = ?)",
                    [association])
        }
    }
}
