import COpenHealthProto
import Foundation
import HealthModel

/// Conversion between `SamplePredicate` and `openhealth.v1.Predicate`. Recursion here is bounded
/// by `WireDepthGuard`, which has already refused deeper payloads.
enum PredicateWire {
    static func build(_ predicate: SamplePredicate, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__Predicate> {
        arena.message { (wire: inout Openhealth__V1__Predicate) in
            switch predicate {
            case let .dateRange(start, end, strictStart, strictEnd):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_DATE_RANGE
                wire.date_range = DateRangeWire.build(.init(start: start, end: end, strictStart: strictStart, strictEnd: strictEnd),
                                                      in: arena)
            case let .uuids(uuids):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_UUIDS
                let values = uuids.sorted { $0.uuidString < $1.uuidString }.map { arena.bytes($0.bytes) }
                wire.uuids = arena.message { (node: inout Openhealth__V1__UuidPredicate) in
                    node.n_uuids = values.count
                    node.uuids = arena.array(values)
                }
            case let .sources(bundles):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_SOURCES
                wire.sources = arena.message { (node: inout Openhealth__V1__SourcePredicate) in
                    node.n_bundle_identifiers = bundles.count
                    node.bundle_identifiers = arena.strings(bundles.sorted())
                }
            case let .devices(devices):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_DEVICES
                let ordered = devices.sorted { "\($0)" < "\($1)" }.map { DeviceWire.build($0, in: arena) }
                wire.devices = arena.message { (node: inout Openhealth__V1__DeviceListPredicate) in
                    node.n_devices = ordered.count
                    node.devices = arena.array(ordered)
                }
            case let .sourceRevisions(revisions):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_SOURCE_REVISIONS
                // A total order (every field in the description), so equal predicates encode to equal bytes.
                let ordered = revisions.sorted { "\($0)" < "\($1)" }
                let matches = ordered.map { revision in
                    arena.message { (node: inout Openhealth__V1__SourceRevisionMatch) in
                        node.bundle_identifier = arena.string(revision.bundleIdentifier)
                        node.any_version = revision.version == nil ? 1 : 0
                        node.has_version = (revision.version ?? nil) == nil ? 0 : 1
                        node.version = arena.string((revision.version ?? nil) ?? "")
                        node.has_product_type = revision.productType == nil ? 0 : 1
                        node.product_type = arena.string(revision.productType ?? "")
                        node.has_operating_system_version = revision.operatingSystemVersion == nil ? 0 : 1
                        node.operating_system_version = arena.string(revision.operatingSystemVersion?.description ?? "")
                    }
                }
                wire.source_revisions = arena.message { (node: inout Openhealth__V1__SourceRevisionPredicate) in
                    node.n_revisions = matches.count
                    node.revisions = arena.array(matches)
                }
            case let .workout(uuid):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_WORKOUT_UUID
                wire.workout_uuid = arena.bytes(uuid.bytes)
            case .noCorrelation:
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_NO_CORRELATION
                wire.no_correlation = 1
            case let .workoutActivityType(activityType):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_WORKOUT_ACTIVITY_TYPE
                wire.workout_activity_type = UInt64(activityType)
            case let .and(operands): wire = compound(OPENHEALTH__V1__COMPOUND_OPERATOR__COMPOUND_OPERATOR_AND, operands, arena)
            case let .or(operands): wire = compound(OPENHEALTH__V1__COMPOUND_OPERATOR__COMPOUND_OPERATOR_OR, operands, arena)
            case let .not(operand): wire = compound(OPENHEALTH__V1__COMPOUND_OPERATOR__COMPOUND_OPERATOR_NOT, [operand], arena)
            case let .device(property, allowed):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_DEVICE
                wire.device = ValuePredicateWire.device(property, allowed, in: arena)
            case let .metadata(key, test):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_METADATA
                wire.metadata = ValuePredicateWire.metadata(key, test, in: arena)
            case let .quantity(op, value, unit):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_QUANTITY
                wire.quantity = ValuePredicateWire.quantity(op, value, unit, in: arena)
            case let .categoryValue(op, value):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_CATEGORY
                wire.category = ValuePredicateWire.category(op, value, in: arena)
            case let .stateOfMind(test):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_STATE_OF_MIND
                wire.state_of_mind = StateOfMindPredicateWire.build(test, in: arena)
            case let .fhirResource(resourceType, identifier):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_FHIR_RESOURCE
                wire.fhir_resource = ClinicalRecordWire.buildPredicate(resourceType: resourceType, identifier: identifier, in: arena)
            case let .workoutValue(test):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_WORKOUT_VALUE
                wire.workout_value = KindPredicateWire.buildWorkout(test, in: arena)
            case let .categoryValues(values):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_CATEGORY_VALUES
                wire.category_values = KindPredicateWire.buildCategoryValues(values, in: arena)
            case let .electrocardiogram(test):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_ELECTROCARDIOGRAM
                wire.electrocardiogram = KindPredicateWire.buildElectrocardiogram(test, in: arena)
            case let .workoutEffort(workout, activity):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_WORKOUT_EFFORT
                wire.workout_effort = WorkoutEffortWire.buildPredicate(workout: workout, activity: activity, in: arena)
            case let .medication(test):
                wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_MEDICATION
                wire.medication = MedicationPredicateWire.build(test, in: arena)
            }
        }
    }

    private static func compound(
        _ op: Openhealth__V1__CompoundOperator, _ operands: [SamplePredicate], _ arena: WireArena
    ) -> Openhealth__V1__Predicate {
        var wire = Openhealth__V1__Predicate.initialized()
        wire.node_case = OPENHEALTH__V1__PREDICATE__NODE_COMPOUND
        let built = operands.map { build($0, in: arena) }
        wire.compound = arena.message { (node: inout Openhealth__V1__CompoundPredicate) in
            node.operator_ = op
            node.n_operands = built.count
            node.operands = arena.messages(built)
        }
        return wire
    }

    /// nil for an empty Predicate (matches everything). Every predicate an app sends is read
    /// here, so the size limit (`SamplePredicate.maximumConditions`) is checked here, once.
    static func read(_ wire: Openhealth__V1__Predicate) throws(WireDecodeError) -> SamplePredicate? {
        guard let predicate = try readNode(wire) else { return nil }
        do {
            try predicate.checkSize()
        } catch {
            throw .invalidField(error.message)
        }
        return predicate
    }

    private static func readNode(_ wire: Openhealth__V1__Predicate) throws(WireDecodeError) -> SamplePredicate? {
        switch wire.node_case {
        case OPENHEALTH__V1__PREDICATE__NODE__NOT_SET:
            return nil
        case OPENHEALTH__V1__PREDICATE__NODE_DATE_RANGE:
            guard let range = wire.date_range?.pointee else { return nil }
            let fields = DateRangeWire.read(range)
            return .dateRange(start: fields.start, end: fields.end, strictStart: fields.strictStart, strictEnd: fields.strictEnd)
        case OPENHEALTH__V1__PREDICATE__NODE_UUIDS:
            var uuids = Set<UUID>()
            if let node = wire.uuids?.pointee, node.n_uuids > 0 {
                for data in UnsafeBufferPointer(start: node.uuids, count: node.n_uuids) {
                    guard let uuid = UUID(bytes: WireRead.bytes(data)) else { throw .invalidField("predicate uuid must be 16 bytes") }
                    uuids.insert(uuid)
                }
            }
            return .uuids(uuids)
        case OPENHEALTH__V1__PREDICATE__NODE_SOURCES:
            let node = wire.sources?.pointee
            return .sources(Set(WireRead.strings(node?.bundle_identifiers, count: node?.n_bundle_identifiers ?? 0)))
        case OPENHEALTH__V1__PREDICATE__NODE_DEVICES:
            let node = wire.devices?.pointee
            return .devices(Set(WireRead.messages(node?.devices, count: node?.n_devices ?? 0).map(DeviceWire.read)))
        case OPENHEALTH__V1__PREDICATE__NODE_SOURCE_REVISIONS:
            let node = wire.source_revisions?.pointee
            return .sourceRevisions(Set(try WireRead.messages(node?.revisions, count: node?.n_revisions ?? 0).map { (match) throws(WireDecodeError) in
                var system: SystemVersion?
                if match.has_operating_system_version != 0 {
                    guard let parsed = SystemVersion(parsing: WireRead.string(match.operating_system_version)) else {
                        throw .invalidField("source revision predicate system version is not major.minor.patch")
                    }
                    system = parsed
                }
                return SourceRevisionMatch(bundleIdentifier: WireRead.string(match.bundle_identifier),
                                           version: match.any_version != 0 ? nil : .some(match.has_version != 0 ? WireRead.string(match.version) : nil),
                                           productType: match.has_product_type != 0 ? WireRead.string(match.product_type) : nil,
                                           operatingSystemVersion: system)
            }))
        case OPENHEALTH__V1__PREDICATE__NODE_COMPOUND:
            guard let node = wire.compound?.pointee else { throw .invalidField("compound predicate missing") }
            let operands = try WireRead.messages(node.operands, count: node.n_operands).map { (operand) throws(WireDecodeError) in
                guard let predicate = try readNode(operand) else { throw .invalidField("empty operand in compound predicate") }
                return predicate
            }
            switch node.operator_ {
            case OPENHEALTH__V1__COMPOUND_OPERATOR__COMPOUND_OPERATOR_AND: return .and(operands)
            case OPENHEALTH__V1__COMPOUND_OPERATOR__COMPOUND_OPERATOR_OR: return .or(operands)
            case OPENHEALTH__V1__COMPOUND_OPERATOR__COMPOUND_OPERATOR_NOT:
                guard operands.count == 1 else { throw .invalidField("NOT takes exactly one operand") }
                return .not(operands[0])
            default:
                throw .invalidField("unknown compound operator")
            }
        case OPENHEALTH__V1__PREDICATE__NODE_WORKOUT_UUID:
            guard let uuid = UUID(bytes: WireRead.bytes(wire.workout_uuid)) else { throw .invalidField("workout uuid must be 16 bytes") }
            return .workout(uuid)
        case OPENHEALTH__V1__PREDICATE__NODE_NO_CORRELATION:
            return .noCorrelation
        case OPENHEALTH__V1__PREDICATE__NODE_WORKOUT_ACTIVITY_TYPE:
            guard let activityType = UInt(exactly: wire.workout_activity_type) else { throw .invalidField("activity type out of range") }
            return .workoutActivityType(activityType)
        case OPENHEALTH__V1__PREDICATE__NODE_DEVICE: return try ValuePredicateWire.readDevice(wire.device?.pointee)
        case OPENHEALTH__V1__PREDICATE__NODE_METADATA: return try ValuePredicateWire.readMetadata(wire.metadata?.pointee)
        case OPENHEALTH__V1__PREDICATE__NODE_QUANTITY: return try ValuePredicateWire.readQuantity(wire.quantity?.pointee)
        case OPENHEALTH__V1__PREDICATE__NODE_CATEGORY: return try ValuePredicateWire.readCategory(wire.category?.pointee)
        case OPENHEALTH__V1__PREDICATE__NODE_STATE_OF_MIND: return try StateOfMindPredicateWire.read(wire.state_of_mind?.pointee)
        case OPENHEALTH__V1__PREDICATE__NODE_FHIR_RESOURCE: return try ClinicalRecordWire.readPredicate(wire.fhir_resource?.pointee)
        case OPENHEALTH__V1__PREDICATE__NODE_WORKOUT_VALUE: return try KindPredicateWire.readWorkout(wire.workout_value?.pointee)
        case OPENHEALTH__V1__PREDICATE__NODE_CATEGORY_VALUES: return try KindPredicateWire.readCategoryValues(wire.category_values?.pointee)
        case OPENHEALTH__V1__PREDICATE__NODE_ELECTROCARDIOGRAM: return try KindPredicateWire.readElectrocardiogram(wire.electrocardiogram?.pointee)
        case OPENHEALTH__V1__PREDICATE__NODE_WORKOUT_EFFORT: return try WorkoutEffortWire.readPredicate(wire.workout_effort?.pointee)
        case OPENHEALTH__V1__PREDICATE__NODE_MEDICATION: return try MedicationPredicateWire.read(wire.medication?.pointee)
        default:
            throw .invalidField("unknown predicate kind")
        }
    }
}
