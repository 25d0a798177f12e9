extension SamplePredicate {
    /// The predicate with every quantity converted to `type`'s canonical unit, the unit samples
    /// are stored in, so the store compares numbers directly. Throws `errorInvalidArgument` for
    /// a quantity in a unit `type` cannot be measured in, a quantity predicate on a type that
    /// is not a quantity type, or a category predicate on one that is not a category type.
    public func canonicalized(for type: HKSampleType) throws(HKError) -> SamplePredicate {
        switch self {
        case let .metadata(_, test):
            // A quantity operand's unit is parsed here, once, so a unit that does not parse is
            // an errorInvalidArgument naming it rather than a comparison that silently matches
            // nothing — and is never handed to the per-row conversion (`openhealth_quantity_in`).
            for case let .quantity(_, unitString) in test.operands { _ = try HKUnit.parse(unitString) }
            return self
        case .dateRange, .uuids, .sources, .sourceRevisions, .devices, .device, .workout, .workoutActivityType, .noCorrelation, .workoutEffort,
             .fhirResource, .medication:  // on another type it matches nothing, as `matches` says
            return self
        case let .stateOfMind(test):
            // On another type it matches nothing (no sample there has a state of mind row), as
            // `matches` says; the SQL stays the same correlated lookup, so every read kind can hold it.
            if case let .valence(_, number) = test, !number.isFinite {
                throw HKError(.errorInvalidArgument, "the predicate's valence is not a finite number")
            }
            return self
        case let .and(operands):
            return .and(try operands.map { (operand) throws(HKError) in try operand.canonicalized(for: type) })
        case let .or(operands):
            return .or(try operands.map { (operand) throws(HKError) in try operand.canonicalized(for: type) })
        case let .not(operand):
            return .not(try operand.canonicalized(for: type))
        case let .quantity(op, value, unitString):
            guard let quantityType = type as? HKQuantityType else {
                throw HKError(.errorInvalidArgument, "a quantity predicate cannot apply to \(type.identifier), which is not a quantity type")
            }
            let unit = try HKUnit.parse(unitString)
            guard quantityType.is(compatibleWith: unit) else {
                throw HKError(.errorInvalidArgument,
                              "the predicate's unit \(unitString) is not compatible with \(type.identifier) (expected a unit like \(quantityType.canonicalUnit.unitString))")
            }
            guard value.isFinite else { throw HKError(.errorInvalidArgument, "the predicate's quantity is not a finite number") }
            let canonical = try HKQuantity(unit: unit, doubleValue: value).value(in: quantityType.canonicalUnit)
            // Finite as given is not enough: 1e308 count/ms is infinite in count/s.
            guard canonical.isFinite else {
                throw HKError(.errorInvalidArgument,
                              "the predicate's quantity \(value) \(unitString) is not a finite number in \(quantityType.canonicalUnit.unitString)")
            }
            return .quantity(op, value: canonical, unit: quantityType.canonicalUnit.unitString)
        case .workoutValue, .electrocardiogram:
            // Numbers arrive in the stored units (the SDK converts, `WorkoutTotal.canonical`);
            // PredicateWire refuses one that is not finite. On another type they match nothing.
            return self
        case .categoryValue, .categoryValues:
            guard type is HKCategoryType else {
                throw HKError(.errorInvalidArgument, "a category predicate cannot apply to \(type.identifier), which is not a category type")
            }
            return self
        }
    }
}

extension SampleQuerySpec {
    /// The predicate converted for the queried type (`SamplePredicate.canonicalized(for:)`);
    /// what the store compiles. Throws for an unknown or non-sample type too.
    public func canonicalPredicate() throws(HKError) -> SamplePredicate? {
        guard let predicate else { return nil }
        guard let type = HKObjectType.type(forIdentifier: typeIdentifier) as? HKSampleType else {
            throw HKError(.errorInvalidArgument, "\(typeIdentifier.prefix(100)) is not a sample type")
        }
        return try predicate.canonicalized(for: type)
    }
}

extension CorrelationQuerySpec {
    /// The correlation predicate and each sample predicate converted for its type.
    public func canonicalized() throws(HKError) -> CorrelationQuerySpec {
        var result = self
        result.predicate = try SampleQuerySpec(typeIdentifier: typeIdentifier, predicate: predicate).canonicalPredicate()
        for (type, predicate) in objectPredicates {
            result.objectPredicates[type] = try SampleQuerySpec(typeIdentifier: type, predicate: predicate).canonicalPredicate()
        }
        return result
    }
}
