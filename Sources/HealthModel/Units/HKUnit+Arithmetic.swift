/// Building compound units, as HealthKit's `unitMultipliedByUnit:` family. None of these
/// trap: an operation HealthKit would reject (an invalid operand, an affine temperature in a
/// product, an exponent beyond ±24) yields an invalid unit explaining why.
extension HKUnit {
    public func unitMultiplied(by unit: HKUnit) -> HKUnit {
        combined(with: unit, spelled: "\(unitString)*\(unit.unitString)") { lhs, rhs throws(HKError) in
            try lhs.multiplied(by: rhs)
        }
    }

    public func unitDivided(by unit: HKUnit) -> HKUnit {
        combined(with: unit, spelled: "\(unitString)/(\(unit.unitString))") { lhs, rhs throws(HKError) in
            try lhs.multiplied(by: try rhs.raised(to: -1))
        }
    }

    public func unitRaised(toPower power: Int) -> HKUnit {
        let spelling = "(\(unitString))^\(power)"
        guard case .valid(let expression) = content else { return invalidOperand(spelled: spelling) }
        // x^1 is x itself; affine units stay usable on their own.
        if power == 1 { return self }
        return Self.result(spelled: spelling) { () throws(HKError) in try expression.raised(to: power) }
    }

    public func reciprocal() -> HKUnit { unitRaised(toPower: -1) }

    private func combined(
        with other: HKUnit, spelled spelling: String,
        _ operation: (UnitExpression, UnitExpression) throws(HKError) -> UnitExpression
    ) -> HKUnit {
        guard case .valid(let lhs) = content, case .valid(let rhs) = other.content else {
            return invalidOperand(spelled: spelling)
        }
        return Self.result(spelled: spelling) { () throws(HKError) in try operation(lhs, rhs) }
    }

    private func invalidOperand(spelled spelling: String) -> HKUnit {
        HKUnit(invalidText: spelling, error: HKError(
            .errorInvalidArgument,
            "invalid unit \(UnitStringParser.quoted(spelling)): it is built from an invalid unit"))
    }

    private static func result(
        spelled spelling: String, _ operation: () throws(HKError) -> UnitExpression
    ) -> HKUnit {
        do {
            return HKUnit(try operation())
        } catch {
            return HKUnit(invalidText: spelling, error: HKError(
                .errorInvalidArgument, "invalid unit \(UnitStringParser.quoted(spelling)): \(error.message)"))
        }
    }
}
