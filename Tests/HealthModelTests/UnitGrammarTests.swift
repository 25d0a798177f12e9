import Testing
@testable import HealthModel

/// HealthKit's unit-string grammar: compound units, canonical printing, and the errors a
/// malformed string from a peer produces.
@Suite(.timeLimit(.minutes(10))) struct UnitGrammarTests {
    @Test(arguments: [
        ("count/min", "count/min"), ("kcal", "kcal"), ("mg/dL", "mg/dL"), ("m", "m"), ("km", "km"),
        ("degC", "degC"), ("mmHg", "mmHg"), ("%", "%"), ("ml", "mL"), ("l", "L"), ("mcg", "mcg"),
        ("dam", "dam"), ("dL", "dL"), ("ms", "ms"),
        ("ml/(kg*min)", "mL/min·kg"), ("mL/min·kg", "mL/min·kg"), ("kcal/(kg*hr)", "kcal/hr·kg"),
        ("m.s^-1", "m/s"), ("m*s^-2", "m/s^2"), ("(m/s)^2", "m^2/s^2"), ("s^-1", "s^-1"),
        ("count*count", "count^2"), ("g*kg", "g·kg"), ("L/min", "L/min"), ("W/kg", "W/kg"),
    ])
    func printsCanonically(_ written: String, _ canonical: String) throws {
        let unit = try HKUnit.parse(written)
        #expect(unit.unitString == canonical)
        #expect(try HKUnit.parse(canonical) == unit, "canonical form must parse back to the same unit")
    }

    @Test func moleUnitsKeepTheirMolarMass() throws {
        let glucose = try HKUnit.parse("mmol<180.1558800000541>/L")
        #expect(glucose.unitString == "mmol<180.1558800000541>/L")
        #expect(glucose == HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose)
            .unitDivided(by: .liter()))
        #expect(try HKUnit.parse("mmol<180.15588>/L") != glucose, "a different molar mass is a different unit")
    }

    @Test func equalityIsStructural() throws {
        #expect(try HKUnit.parse("kg*m/s^2") == HKUnit.parse("m.kg/s^2"))
        #expect(try HKUnit.parse("kg*m/s^2") == HKUnit.parse("kg.m.s^-2"))
        #expect(try HKUnit.parse("kg*m/s^2").unitString == "kg·m/s^2")
        #expect(try HKUnit.parse("count/count") == HKUnit.parse("m/m"), "both cancel to the null unit (HKUnitNullTests)")
        #expect(try HKUnit.parse("kg") != HKUnit.gram())
        #expect(Set([try HKUnit.parse("ml/(kg*min)"), try HKUnit.parse("mL/min·kg")]).count == 1)
    }

    @Test func arithmeticMatchesParsing() throws {
        let perMinute = HKUnit.count().unitDivided(by: .minute())
        #expect(perMinute == (try HKUnit.parse("count/min")))
        #expect(HKUnit.meter().unitMultiplied(by: .meter()) == (try HKUnit.parse("m^2")))
        #expect(HKUnit.meter().unitRaised(toPower: 3) == (try HKUnit.parse("m^3")))
        #expect(HKUnit.second().reciprocal() == (try HKUnit.parse("s^-1")))
        #expect(HKUnit.gramUnit(with: .milli).unitDivided(by: .literUnit(with: .deci)).unitString == "mg/dL")
        #expect(HKUnit.degreeCelsius().unitRaised(toPower: 1) == .degreeCelsius())
    }

    @Test(arguments: [
        ("", "empty"),
        ("foo", "unknown unit 'foo'"),
        ("m/s/s", "second '/'"),
        ("kmin", "'min' does not take a metric prefix"),
        ("kK", "'K' does not take a metric prefix"),
        ("mcal", "'cal' does not take a metric prefix"),
        ("da", "unknown unit 'da'"),
        ("mol", "needs its molar mass"),
        ("mmol/L", "needs its molar mass"),
        ("g<5>", "only mole units take a molar mass"),
        ("mol<-1>", "positive number"),
        ("mol<nan>", "positive number"),
        ("mol<0x10>", "positive number"),
        ("mol<5", "never closed"),
        ("degC/min", "only be used on its own"),
        ("degF*m", "only be used on its own"),
        ("degC^2", "only be used on its own"),
        ("dBASPL/s", "only be used on its own"),
        ("(m", "never closed"),
        ("m)", "unexpected ')'"),
        ("m^", "integer exponent"),
        ("m^9999", "too large"),
        ("m^30", "outside ±24"),
        ("(m^20)^2", "outside ±24"),
        ("m s", "unexpected ' '"),
        ("m2", "unexpected '2'"),
        ("*m", "expected a unit"),
        ("m/", "expected a unit at the end"),
        ("((((((((((m))))))))))", "deeper than"),
        ("µg", "expected a unit but found 'µ'"),
    ])
    func rejectsWithAClearMessage(_ text: String, _ phrase: String) {
        #expect {
            try HKUnit.parse(text)
        } throws: { error in
            guard let error = error as? HKError else { return false }
            return error.code == .errorInvalidArgument && error.message.contains(phrase)
        }
        let lenient = HKUnit(from: text)
        #expect(!lenient.isValid)
        #expect(lenient.validationError?.message.contains(phrase) == true)
        #expect(lenient.unitString == text)
        #expect(!lenient.isCompatible(with: lenient))
    }

    @Test func overlongStringsAreRejectedAndErrorsStayShort() throws {
        let long = String(repeating: "m*", count: 200) + "m"
        #expect(throws: HKError.self) { try HKUnit.parse(long) }
        let unknown = String(repeating: "x", count: 250)
        let message = HKUnit(from: unknown).validationError!.message
        #expect(message.count < 200, "error text quotes at most a prefix of hostile input")
    }

    @Test func combiningWithAnInvalidUnitGivesAnInvalidUnit() {
        let invalid = HKUnit(from: "furlong")
        #expect(!HKUnit.meter().unitMultiplied(by: invalid).isValid)
        #expect(!invalid.unitDivided(by: .second()).isValid)
        #expect(!invalid.reciprocal().isValid)
        #expect(!HKUnit.degreeCelsius().unitDivided(by: .minute()).isValid)
        #expect(!HKUnit.meter().unitRaised(toPower: Int.max).isValid)
        #expect(!HKUnit.meter().unitRaised(toPower: Int.min).isValid)
        #expect(!HKUnit.moleUnit(withMolarMass: -3).isValid)
        #expect(!HKUnit.moleUnit(withMolarMass: .infinity).isValid)
    }
}
