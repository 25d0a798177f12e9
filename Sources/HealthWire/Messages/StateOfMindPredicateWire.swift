import COpenHealthProto
import HealthModel

/// The State of Mind predicate node (sample_predicates.proto `StateOfMindPredicate`).
enum StateOfMindPredicateWire {
    static func build(_ test: StateOfMindTest, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__StateOfMindPredicate> {
        arena.message { (node: inout Openhealth__V1__StateOfMindPredicate) in
            switch test {
            case let .kind(kind):
                node.field = OPENHEALTH__V1__STATE_OF_MIND_FIELD__STATE_OF_MIND_FIELD_KIND
                node.value = Int64(kind)
            case let .valence(op, number):
                node.field = OPENHEALTH__V1__STATE_OF_MIND_FIELD__STATE_OF_MIND_FIELD_VALENCE
                node.operator_ = ValuePredicateWire.wireOperator(op)
                node.valence = number
            case let .label(label):
                node.field = OPENHEALTH__V1__STATE_OF_MIND_FIELD__STATE_OF_MIND_FIELD_LABEL
                node.value = Int64(label)
            case let .association(association):
                node.field = OPENHEALTH__V1__STATE_OF_MIND_FIELD__STATE_OF_MIND_FIELD_ASSOCIATION
                node.value = Int64(association)
            }
        }
    }

    static func read(_ node: Openhealth__V1__StateOfMindPredicate?) throws(WireDecodeError) -> SamplePredicate {
        guard let node else { throw .invalidField("state of mind predicate missing") }
        guard let value = Int(exactly: node.value) else { throw .invalidField("state of mind predicate value out of range") }
        switch node.field {
        case OPENHEALTH__V1__STATE_OF_MIND_FIELD__STATE_OF_MIND_FIELD_KIND: return .stateOfMind(.kind(value))
        case OPENHEALTH__V1__STATE_OF_MIND_FIELD__STATE_OF_MIND_FIELD_VALENCE:
            return .stateOfMind(.valence(try ValuePredicateWire.readOperator(node.operator_), node.valence))
        case OPENHEALTH__V1__STATE_OF_MIND_FIELD__STATE_OF_MIND_FIELD_LABEL: return .stateOfMind(.label(value))
        case OPENHEALTH__V1__STATE_OF_MIND_FIELD__STATE_OF_MIND_FIELD_ASSOCIATION: return .stateOfMind(.association(value))
        default: throw .invalidField("unknown state of mind predicate field")
        }
    }
}
