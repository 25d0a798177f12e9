import COpenHealthProto
import Foundation
import HealthModel

/// The workout, category-list and electrocardiogram predicate nodes (kind_predicates.proto,
/// `Predicate` fields 30-32). Reading is bounded: nesting by `WireDepthGuard` before any of this
/// runs, the number of conditions by `SamplePredicate.checkSize()` afterwards, and every number
/// must be finite (a NaN compares false with everything and would make `not` match all).
enum KindPredicateWire {
    private static let totals: [WorkoutTotal: Openhealth__V1__WorkoutTotalField] = [
        .duration: OPENHEALTH__V1__WORKOUT_TOTAL_FIELD__WORKOUT_TOTAL_FIELD_DURATION,
        .energyBurned: OPENHEALTH__V1__WORKOUT_TOTAL_FIELD__WORKOUT_TOTAL_FIELD_ENERGY_BURNED,
        .distance: OPENHEALTH__V1__WORKOUT_TOTAL_FIELD__WORKOUT_TOTAL_FIELD_DISTANCE,
        .swimmingStrokeCount: OPENHEALTH__V1__WORKOUT_TOTAL_FIELD__WORKOUT_TOTAL_FIELD_SWIMMING_STROKE_COUNT,
        .flightsClimbed: OPENHEALTH__V1__WORKOUT_TOTAL_FIELD__WORKOUT_TOTAL_FIELD_FLIGHTS_CLIMBED,
    ]
    private static let statistics: [WorkoutStatisticTest.Statistic: Openhealth__V1__WorkoutStatisticKind] = [
        .sum: OPENHEALTH__V1__WORKOUT_STATISTIC_KIND__WORKOUT_STATISTIC_KIND_SUM,
        .minimum: OPENHEALTH__V1__WORKOUT_STATISTIC_KIND__WORKOUT_STATISTIC_KIND_MINIMUM,
        .maximum: OPENHEALTH__V1__WORKOUT_STATISTIC_KIND__WORKOUT_STATISTIC_KIND_MAXIMUM,
        .average: OPENHEALTH__V1__WORKOUT_STATISTIC_KIND__WORKOUT_STATISTIC_KIND_AVERAGE,
    ]
    /// Longest quantity type identifier read (the longest HealthKit identifier is under 100).
    private static let maximumIdentifierLength = 200

    // MARK: Building

    static func buildWorkout(_ test: WorkoutTest, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__WorkoutValuePredicate> {
        arena.message { (node: inout Openhealth__V1__WorkoutValuePredicate) in
            switch test {
            case let .total(total, op, number):
                node.test_case = OPENHEALTH__V1__WORKOUT_VALUE_PREDICATE__TEST_TOTAL
                node.total = arena.message { (wire: inout Openhealth__V1__WorkoutTotalPredicate) in
                    wire.field = totals[total] ?? OPENHEALTH__V1__WORKOUT_TOTAL_FIELD__WORKOUT_TOTAL_FIELD_UNSPECIFIED
                    wire.operator_ = ValuePredicateWire.wireOperator(op)
                    wire.value = number
                }
            case let .statistic(statistic):
                node.test_case = OPENHEALTH__V1__WORKOUT_VALUE_PREDICATE__TEST_STATISTIC
                node.statistic = buildStatistic(statistic, in: arena)
            case let .activity(activity):
                node.test_case = OPENHEALTH__V1__WORKOUT_VALUE_PREDICATE__TEST_ACTIVITY
                node.activity = buildActivity(activity, in: arena)
            }
        }
    }

    static func buildCategoryValues(_ values: Set<Int>, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__CategoryValuesPredicate> {
        let sorted = values.sorted().map(Int64.init)
        return arena.message { (node: inout Openhealth__V1__CategoryValuesPredicate) in
            node.n_values = sorted.count
            node.values = arena.array(sorted)
        }
    }

    static func buildElectrocardiogram(_ test: ElectrocardiogramTest, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__ElectrocardiogramPredicate> {
        arena.message { (node: inout Openhealth__V1__ElectrocardiogramPredicate) in
            switch test {
            case let .classification(raw):
                node.field = OPENHEALTH__V1__ELECTROCARDIOGRAM_FIELD__ELECTROCARDIOGRAM_FIELD_CLASSIFICATION
                node.value = Int64(raw)
            case let .symptomsStatus(raw):
                node.field = OPENHEALTH__V1__ELECTROCARDIOGRAM_FIELD__ELECTROCARDIOGRAM_FIELD_SYMPTOMS_STATUS
                node.value = Int64(raw)
            }
        }
    }

    private static func buildStatistic(_ test: WorkoutStatisticTest, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__WorkoutStatisticPredicate> {
        arena.message { (wire: inout Openhealth__V1__WorkoutStatisticPredicate) in
            wire.quantity_type = arena.string(test.quantityType)
            wire.statistic = statistics[test.statistic] ?? OPENHEALTH__V1__WORKOUT_STATISTIC_KIND__WORKOUT_STATISTIC_KIND_UNSPECIFIED
            wire.operator_ = ValuePredicateWire.wireOperator(test.op)
            wire.value = test.value
        }
    }

    private static func buildActivity(_ test: WorkoutActivityTest, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__WorkoutActivityPredicate> {
        arena.message { (node: inout Openhealth__V1__WorkoutActivityPredicate) in
            switch test {
            case let .activityType(type):
                node.node_case = OPENHEALTH__V1__WORKOUT_ACTIVITY_PREDICATE__NODE_ACTIVITY_TYPE
                node.activity_type = UInt64(type)
            case let .duration(op, seconds):
                node.node_case = OPENHEALTH__V1__WORKOUT_ACTIVITY_PREDICATE__NODE_DURATION
                node.duration = arena.message { (wire: inout Openhealth__V1__ActivityDuration) in
                    wire.operator_ = ValuePredicateWire.wireOperator(op)
                    wire.seconds = seconds
                }
            case let .dateRange(start, end, strictStart, strictEnd):
                node.node_case = OPENHEALTH__V1__WORKOUT_ACTIVITY_PREDICATE__NODE_DATE_RANGE
                node.date_range = DateRangeWire.build(.init(start: start, end: end, strictStart: strictStart, strictEnd: strictEnd),
                                                      in: arena)
            case let .statistic(statistic):
                node.node_case = OPENHEALTH__V1__WORKOUT_ACTIVITY_PREDICATE__NODE_STATISTIC
                node.statistic = buildStatistic(statistic, in: arena)
            case let .and(operands): node = compound(OPENHEALTH__V1__ACTIVITY_JOIN__ACTIVITY_JOIN_AND, operands, arena)
            case let .or(operands): node = compound(OPENHEALTH__V1__ACTIVITY_JOIN__ACTIVITY_JOIN_OR, operands, arena)
            case let .not(operand): node = compound(OPENHEALTH__V1__ACTIVITY_JOIN__ACTIVITY_JOIN_NOT, [operand], arena)
            }
        }
    }

    private static func compound(_ join: Openhealth__V1__ActivityJoin, _ operands: [WorkoutActivityTest],
                                 _ arena: WireArena) -> Openhealth__V1__WorkoutActivityPredicate {
        var node = Openhealth__V1__WorkoutActivityPredicate.initialized()
        node.node_case = OPENHEALTH__V1__WORKOUT_ACTIVITY_PREDICATE__NODE_COMPOUND
        let built = operands.map { buildActivity($0, in: arena) }
        node.compound = arena.message { (wire: inout Openhealth__V1__ActivityCompound) in
            wire.join = join
            wire.n_operands = built.count
            wire.operands = arena.messages(built)
        }
        return node
    }

    // MARK: Reading

    static func readWorkout(_ node: Openhealth__V1__WorkoutValuePredicate?) throws(WireDecodeError) -> SamplePredicate {
        guard let node else { throw .invalidField("workout predicate missing") }
        switch node.test_case {
        case OPENHEALTH__V1__WORKOUT_VALUE_PREDICATE__TEST_TOTAL:
            guard let wire = node.total?.pointee else { throw .invalidField("workout total predicate missing") }
            guard let total = totals.first(where: { $0.value == wire.field })?.key else { throw .invalidField("unknown workout total") }
            return .workoutValue(.total(total, try ValuePredicateWire.readOperator(wire.operator_), try finite(wire.value, "workout total")))
        case OPENHEALTH__V1__WORKOUT_VALUE_PREDICATE__TEST_STATISTIC:
            return .workoutValue(.statistic(try readStatistic(node.statistic?.pointee)))
        case OPENHEALTH__V1__WORKOUT_VALUE_PREDICATE__TEST_ACTIVITY:
            guard let activity = node.activity?.pointee else { throw .invalidField("workout activity predicate missing") }
            return .workoutValue(.activity(try readActivity(activity)))
        default:
            throw .invalidField("unknown workout predicate")
        }
    }

    static func readCategoryValues(_ node: Openhealth__V1__CategoryValuesPredicate?) throws(WireDecodeError) -> SamplePredicate {
        guard let node else { throw .invalidField("category values predicate missing") }
        var values = Set<Int>()
        if node.n_values > 0 {
            for value in UnsafeBufferPointer(start: node.values, count: node.n_values) {
                guard let int = Int(exactly: value) else { throw .invalidField("category value out of range") }
                values.insert(int)
            }
        }
        return .categoryValues(values)
    }

    static func readElectrocardiogram(_ node: Openhealth__V1__ElectrocardiogramPredicate?) throws(WireDecodeError) -> SamplePredicate {
        guard let node else { throw .invalidField("electrocardiogram predicate missing") }
        guard let value = Int(exactly: node.value) else { throw .invalidField("electrocardiogram predicate value out of range") }
        switch node.field {
        case OPENHEALTH__V1__ELECTROCARDIOGRAM_FIELD__ELECTROCARDIOGRAM_FIELD_CLASSIFICATION: return .electrocardiogram(.classification(value))
        case OPENHEALTH__V1__ELECTROCARDIOGRAM_FIELD__ELECTROCARDIOGRAM_FIELD_SYMPTOMS_STATUS: return .electrocardiogram(.symptomsStatus(value))
        default: throw .invalidField("unknown electrocardiogram predicate field")
        }
    }

    private static func readStatistic(_ wire: Openhealth__V1__WorkoutStatisticPredicate?) throws(WireDecodeError) -> WorkoutStatisticTest {
        guard let wire else { throw .invalidField("workout statistic predicate missing") }
        guard let statistic = statistics.first(where: { $0.value == wire.statistic })?.key else { throw .invalidField("unknown workout statistic") }
        let identifier = WireRead.string(wire.quantity_type)
        guard identifier.utf8.count <= maximumIdentifierLength, HKObjectType.type(forIdentifier: identifier) is HKQuantityType else {
            throw .invalidField("a workout statistic predicate must name a quantity type")
        }
        return WorkoutStatisticTest(quantityType: identifier, statistic: statistic, op: try ValuePredicateWire.readOperator(wire.operator_),
                                    value: try finite(wire.value, "workout statistic"))
    }

    private static func readActivity(_ node: Openhealth__V1__WorkoutActivityPredicate) throws(WireDecodeError) -> WorkoutActivityTest {
        switch node.node_case {
        case OPENHEALTH__V1__WORKOUT_ACTIVITY_PREDICATE__NODE_ACTIVITY_TYPE:
            guard let type = UInt(exactly: node.activity_type) else { throw .invalidField("activity type out of range") }
            return .activityType(type)
        case OPENHEALTH__V1__WORKOUT_ACTIVITY_PREDICATE__NODE_DURATION:
            guard let wire = node.duration?.pointee else { throw .invalidField("activity duration predicate missing") }
            return .duration(try ValuePredicateWire.readOperator(wire.operator_), try finite(wire.seconds, "activity duration"))
        case OPENHEALTH__V1__WORKOUT_ACTIVITY_PREDICATE__NODE_DATE_RANGE:
            guard let range = node.date_range?.pointee else { throw .invalidField("activity date range missing") }
            let fields = DateRangeWire.read(range)
            return .dateRange(start: fields.start, end: fields.end, strictStart: fields.strictStart, strictEnd: fields.strictEnd)
        case OPENHEALTH__V1__WORKOUT_ACTIVITY_PREDICATE__NODE_STATISTIC:
            return .statistic(try readStatistic(node.statistic?.pointee))
        case OPENHEALTH__V1__WORKOUT_ACTIVITY_PREDICATE__NODE_COMPOUND:
            guard let wire = node.compound?.pointee else { throw .invalidField("activity compound predicate missing") }
            let operands = try WireRead.messages(wire.operands, count: wire.n_operands).map { (operand) throws(WireDecodeError) in
                try readActivity(operand)
            }
            switch wire.join {
            case OPENHEALTH__V1__ACTIVITY_JOIN__ACTIVITY_JOIN_AND: return .and(operands)
            case OPENHEALTH__V1__ACTIVITY_JOIN__ACTIVITY_JOIN_OR: return .or(operands)
            case OPENHEALTH__V1__ACTIVITY_JOIN__ACTIVITY_JOIN_NOT:
                guard operands.count == 1 else { throw .invalidField("NOT takes exactly one operand") }
                return .not(operands[0])
            default:
                throw .invalidField("unknown activity compound operator")
            }
        default:
            throw .invalidField("unknown workout activity predicate")
        }
    }

    private static func finite(_ value: Double, _ what: String) throws(WireDecodeError) -> Double {
        guard value.isFinite else { throw .invalidField("the \(what) predicate's number is not finite") }
        return value
    }
}
