import Testing
@testable import HealthModel

/// Session 21 (availreview21, finding 1): nested powers multiply exponents, and an unchecked
/// product or sum overflowed Int and trapped — one unit string from an app with no grants
/// killed healthd. The parser now bounds every written exponent as it goes, so these are typed
/// errors naming the problem.
@Suite(.timeLimit(.minutes(10))) struct UnitExponentOverflowTests {
    /// 999^7 > Int.max: overflowed the product in `parsePower` (45 characters).
    static let nestedPowers = "((((((count^999)^999)^999)^999)^999)^999)^999"
    /// Two factors of 9·999^6 each: each fit an Int, their sum did not (87 characters).
    static let overflowingSum: String = {
        let factor = String(repeating: "(", count: 6) + "count^9)^999" + String(repeating: ")^999", count: 5)
        return factor + "*" + factor
    }()

    @Test(arguments: [nestedPowers, overflowingSum, "(m^999)^-999", "((m^-999)^999)^999", "(m^2)^999", "(m^-2)^-999"])
    func overflowingExponentsAreATypedErrorNotATrap(_ text: String) {
        #expect {
            try HKUnit.parse(text)
        } throws: { error in
            guard let error = error as? HKError else { return false }
            return error.code == .errorInvalidArgument && error.message.contains("exponent is too large")
        }
        let lenient = HKUnit(from: text)
        #expect(!lenient.isValid)
        #expect(lenient.validationError?.message.contains("exponent is too large") == true)
    }

    @Test func exponentsThatCancelOrStayWithinTheBoundStillParse() throws {
        #expect(try HKUnit.parse("((m^3)^3)^2") == HKUnit.parse("m^18"))
        #expect(try HKUnit.parse("(m^999)/(m^998)") == HKUnit.meter())
        #expect(try HKUnit.parse("((m^-1)^-1)^-1") == HKUnit.parse("m^-1"))
        #expect(try HKUnit.parse("(m/s)^-24").unitString == "s^24/m^24")
    }

    /// Sums of many bounded factors: 128 factors of ±999 in 256 characters cannot overflow, and
    /// the normalized unit is then held to ±24.
    @Test func longProductsOfLargeExponentsAreRefusedByTheNormalBound() {
        let text = String(repeating: "m^999*", count: 36) + "m"
        #expect(text.unicodeScalars.count <= UnitStringParser.maximumLength)
        #expect {
            try HKUnit.parse(text)
        } throws: { error in
            (error as? HKError)?.message.contains("outside ±\(UnitExpression.maximumExponentMagnitude)") == true
        }
    }

    /// Nesting is bounded before any recursion deeper than it: a long run of "(" is refused by
    /// length, and 9 levels by depth, at the ninth "(".
    @Test func deepNestingIsBoundedNotRecursed() {
        for text in [String(repeating: "(", count: 1 << 20), String(repeating: "(", count: 200) + "m" + String(repeating: ")", count: 50),
                     String(repeating: "(", count: 9) + "m" + String(repeating: ")", count: 9)] {
            #expect(throws: HKError.self) { try HKUnit.parse(text) }
        }
    }
}
