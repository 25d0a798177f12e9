import Testing

@testable import HealthModel

/// Issue 17: a save's quantity samples are checked and converted through a plan made once per
/// (type, unit) (`QuantityUnitPlan`) instead of parsing, comparing and converting units for every
/// sample. The plan must give exactly what the per-sample path gave: the same stored number, the
/// same refusals with the same messages.
@Suite(.timeLimit(.minutes(10)), .serialized) struct QuantityUnitPlanTests {
    /// Units of every dimension the registry's types use, linear and not (degF, dBASPL), with
    /// prefixes and compound forms.
    static let units = [
        "count", "count/min", "count/s", "Hz", "kcal", "kJ", "Cal", "J", "m", "km", "cm", "mi", "ft", "in", "yd",
        "kg", "g", "lb", "oz", "st", "mg", "mcg", "degC", "degF", "K", "%", "mmHg", "cmAq", "kPa", "atm", "dBASPL",
        "dBHL", "mg/dL", "mmol<180.15588>/L", "L", "mL", "fl_oz_us", "cup_us", "s", "ms", "min", "hr", "d", "m/s",
        "km/hr", "mi/hr", "W", "mL/min·kg", "kcal/hr·kg", "IU", "lx", "V", "mV", "S", "appleEffortScore", "ft/s",
    ]

    /// The values tried per type: its bounds, just inside and outside them, zero, a mid value,
    /// and the extremes (±inf, NaN, the largest double).
    static func values(_ bounds: ClosedRange<Double>?) -> [Double] {
        var values: [Double] = [0, 1, -1, 72.5, 1e308, -1e308, .infinity, -.infinity, .nan, .leastNonzeroMagnitude]
        if let bounds {
            let span = bounds.upperBound - bounds.lowerBound
            values += [bounds.lowerBound, bounds.upperBound, bounds.lowerBound + span / 3, bounds.upperBound + span / 1000,
                       bounds.lowerBound - max(span / 1000, 1e-6), bounds.upperBound * (1 + 1e-12)]
        }
        return values
    }

    /// What `QuantityValueCheck` computed per sample before plans, written out from the public
    /// pieces it used.
    static func reference(_ value: Double, _ unitString: String, _ type: HKQuantityType) throws(HKError) -> Double {
        let unit = try HKUnit.parse(unitString)
        guard type.is(compatibleWith: unit) else {
            throw HKError(.errorInvalidArgument,
                          "unit \(unitString) is not compatible with \(type.identifier) (expected a unit like \(type.canonicalUnit.unitString))")
        }
        guard value.isFinite else {
            throw HKError(.errorInvalidArgument, "\(type.identifier): value \(value) \(unitString) is not a finite number")
        }
        let canonical = try HKQuantity(unit: unit, doubleValue: value).value(in: type.canonicalUnit)
        guard canonical.isFinite else {
            throw HKError(.errorInvalidArgument,
                          "\(type.identifier): value \(value) \(unitString) is not a finite number in \(type.canonicalUnit.unitString)")
        }
        let range = QuantityValueRanges.range(for: HKQuantityTypeIdentifier(rawValue: type.identifier))
        if let bounds = range?.bounds(in: unit) {
            guard bounds.contains(value) || QuantityValueCheck.atBound(value, bounds) else {
                throw HKError(.errorInvalidArgument,
                              "\(type.identifier): value \(value) \(unitString) is outside the allowed range \(QuantityValueCheck.format(bounds.lowerBound)) to \(QuantityValueCheck.format(bounds.upperBound)) \(unitString)")
            }
            if let stored = range?.bounds(in: type.canonicalUnit) { return min(max(canonical, stored.lowerBound), stored.upperBound) }
        } else {
            let ceiling = QuantityValueRanges.ceiling
            guard abs(canonical) <= ceiling else {
                throw HKError(.errorInvalidArgument,
                              "\(type.identifier): value \(value) \(unitString) is outside the allowed range -\(QuantityValueCheck.format(ceiling)) to \(QuantityValueCheck.format(ceiling)) \(type.canonicalUnit.unitString)")
            }
        }
        return canonical
    }

    static func outcome(_ body: () throws(HKError) -> Double) -> String {
        do {
            let value = try body()
            return "stored \(value.bitPattern)"
        } catch {
            return "refused \(error.code): \(error.message)"
        }
    }

    /// Every quantity type × every unit (compatible or not) × every value: the validator's
    /// answer through the cached plan is bit for bit the per-sample path's.
    @Test func everyTypeUnitAndValueIsCheckedAndStoredAsBefore() {
        let types = HKObjectType.allTypes.compactMap { $0 as? HKQuantityType }
        #expect(types.count > 50)
        var compared = 0, converted = 0
        for type in types {
            let range = QuantityValueRanges.range(for: HKQuantityTypeIdentifier(rawValue: type.identifier))
            for unitString in Self.units + [type.canonicalUnit.unitString] {
                let unit = HKUnit(from: unitString)
                for value in Self.values(range?.bounds(in: unit)) {
                    let expected = Self.outcome { () throws(HKError) in try Self.reference(value, unitString, type) }
                    let planned = Self.outcome { () throws(HKError) in
                        let plan = try QuantityUnitPlan.cached(type, unitString: unitString)
                        return try QuantityValueCheck.canonical(value, plan: plan, unitString: unitString, of: type)
                    }
                    #expect(planned == expected, "\(type.identifier), \(value) \(unitString)")
                    compared += 1
                    if expected.hasPrefix("stored"), unitString != type.canonicalUnit.unitString { converted += 1 }
                }
            }
        }
        // The comparison covered conversions, not only refusals and canonical units.
        #expect(converted > 500, "only \(converted) of \(compared) cases stored a converted value")
    }

    /// Only plans that were made are kept, and never more than `capacity`, whatever units an
    /// app sends (molar masses give endless distinct valid units).
    @Test func theCacheKeepsOnlyMadePlansAndStaysBounded() throws {
        let glucose = HKQuantityType(.bloodGlucose)
        _ = try QuantityUnitPlan.cached(glucose, unitString: "mg/dL")
        #expect(QuantityUnitPlan.contains(glucose, unitString: "mg/dL"), "positive control: a made plan is kept")
        #expect(throws: HKError.self) { _ = try QuantityUnitPlan.cached(glucose, unitString: "kg") }
        #expect(throws: HKError.self) { _ = try QuantityUnitPlan.cached(glucose, unitString: "notaunit") }
        #expect(!QuantityUnitPlan.contains(glucose, unitString: "kg") && !QuantityUnitPlan.contains(glucose, unitString: "notaunit"))
        for index in 0..<(QuantityUnitPlan.capacity * 2 + 7) {
            _ = try QuantityUnitPlan.cached(glucose, unitString: "mmol<\(index + 1)>/L")
            #expect(QuantityUnitPlan.count <= QuantityUnitPlan.capacity)
        }
        let plan = try QuantityUnitPlan.cached(glucose, unitString: "mmol<180.15588>/L")
        #expect(try plan.canonical(5.5, of: glucose)
                == HKQuantity(unit: HKUnit.parse("mmol<180.15588>/L"), doubleValue: 5.5).value(in: glucose.canonicalUnit))
    }
}
