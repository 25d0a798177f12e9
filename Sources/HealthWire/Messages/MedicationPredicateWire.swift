import COpenHealthProto
import Foundation
import HealthModel

/// The medication predicate node (medications.proto `MedicationPredicate`, Predicate.node 34).
enum MedicationPredicateWire {
    static func build(_ test: MedicationTest, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__MedicationPredicate> {
        arena.message { (node: inout Openhealth__V1__MedicationPredicate) in
            switch test {
            case let .isArchived(flag):
                node.field = OPENHEALTH__V1__MEDICATION_PREDICATE_FIELD__MEDICATION_PREDICATE_FIELD_IS_ARCHIVED
                node.flag = flag ? 1 : 0
            case let .hasSchedule(flag):
                node.field = OPENHEALTH__V1__MEDICATION_PREDICATE_FIELD__MEDICATION_PREDICATE_FIELD_HAS_SCHEDULE
                node.flag = flag ? 1 : 0
            case let .logStatuses(statuses):
                node.field = OPENHEALTH__V1__MEDICATION_PREDICATE_FIELD__MEDICATION_PREDICATE_FIELD_LOG_STATUSES
                let values = statuses.sorted().map(Int64.init)
                node.n_values = values.count
                node.values = arena.array(values)
            case let .scheduledDates(dates):
                node.field = OPENHEALTH__V1__MEDICATION_PREDICATE_FIELD__MEDICATION_PREDICATE_FIELD_SCHEDULED_DATES
                let values = dates.map(\.microsecondsSince1970).sorted()
                node.n_values = values.count
                node.values = arena.array(values)
            case let .scheduledRange(start, end):
                node.field = OPENHEALTH__V1__MEDICATION_PREDICATE_FIELD__MEDICATION_PREDICATE_FIELD_SCHEDULED_RANGE
                if let start {
                    node.has_start = 1
                    node.start_us = start.microsecondsSince1970
                }
                if let end {
                    node.has_end = 1
                    node.end_us = end.microsecondsSince1970
                }
            case let .conceptIdentifiers(identifiers):
                node.field = OPENHEALTH__V1__MEDICATION_PREDICATE_FIELD__MEDICATION_PREDICATE_FIELD_CONCEPT_IDENTIFIERS
                node.n_concept_identifiers = identifiers.count
                node.concept_identifiers = arena.strings(identifiers.sorted())
            }
        }
    }

    static func read(_ node: Openhealth__V1__MedicationPredicate?) throws(WireDecodeError) -> SamplePredicate {
        guard let node else { throw .invalidField("medication predicate missing") }
        guard node.n_values <= MedicationTest.maximumListCount, node.n_concept_identifiers <= MedicationTest.maximumListCount else {
            throw .invalidField("a medication predicate lists at most \(MedicationTest.maximumListCount) values")
        }
        let values: [Int64] = node.n_values > 0 ? node.values.map { Array(UnsafeBufferPointer(start: $0, count: node.n_values)) } ?? [] : []
        switch node.field {
        case OPENHEALTH__V1__MEDICATION_PREDICATE_FIELD__MEDICATION_PREDICATE_FIELD_IS_ARCHIVED:
            return .medication(.isArchived(node.flag != 0))
        case OPENHEALTH__V1__MEDICATION_PREDICATE_FIELD__MEDICATION_PREDICATE_FIELD_HAS_SCHEDULE:
            return .medication(.hasSchedule(node.flag != 0))
        case OPENHEALTH__V1__MEDICATION_PREDICATE_FIELD__MEDICATION_PREDICATE_FIELD_LOG_STATUSES:
            var statuses = Set<Int>()
            for value in values {
                guard let status = Int(exactly: value) else { throw .invalidField("log status out of range") }
                statuses.insert(status)
            }
            return .medication(.logStatuses(statuses))
        case OPENHEALTH__V1__MEDICATION_PREDICATE_FIELD__MEDICATION_PREDICATE_FIELD_SCHEDULED_DATES:
            return .medication(.scheduledDates(Set(values.map(Date.init(microsecondsSince1970:)))))
        case OPENHEALTH__V1__MEDICATION_PREDICATE_FIELD__MEDICATION_PREDICATE_FIELD_SCHEDULED_RANGE:
            return .medication(.scheduledRange(start: node.has_start != 0 ? Date(microsecondsSince1970: node.start_us) : nil,
                                               end: node.has_end != 0 ? Date(microsecondsSince1970: node.end_us) : nil))
        case OPENHEALTH__V1__MEDICATION_PREDICATE_FIELD__MEDICATION_PREDICATE_FIELD_CONCEPT_IDENTIFIERS:
            return .medication(.conceptIdentifiers(Set(WireRead.strings(node.concept_identifiers, count: node.n_concept_identifiers))))
        default:
            throw .invalidField("unknown medication predicate field")
        }
    }
}
