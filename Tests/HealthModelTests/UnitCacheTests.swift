import Testing

@testable import HealthModel

/// Unit strings are parsed once per process (issue 17), and the cache of parsed units stays
/// bounded whatever strings an app sends.
@Suite(.timeLimit(.minutes(10)), .serialized) struct UnitCacheTests {
    @Test func aUnitStringIsParsedOnce() throws {
        let first = try HKUnit.parse("mL/min·kg")
        let second = try HKUnit.parse("mL/min·kg")
        #expect(first === second)
        #expect(first == HKUnit(from: "mL/min·kg"))
    }

    @Test func invalidStringsAreNotKept() throws {
        _ = try HKUnit.parse("count")
        #expect(UnitCache.contains("count"), "positive control: a valid unit is kept")
        for index in 0..<100 {
            #expect(throws: HKError.self) { _ = try HKUnit.parse("notaunit\(index)") }
            #expect(!HKUnit(from: "notaunit\(index)").isValid)
            #expect(!UnitCache.contains("notaunit\(index)"))
        }
    }

    @Test func theCacheStaysBounded() throws {
        // Distinct valid units without end: molar masses.
        for index in 0..<(UnitCache.capacity * 2 + 7) {
            _ = try UnitCache.unit("mmol<\(index + 1)>/L")
            #expect(UnitCache.count <= UnitCache.capacity)
        }
        // Still correct after starting over.
        #expect(try HKQuantity(unit: HKUnit.parse("mmol<180.15588>/L"), doubleValue: 1).value(in: HKUnit.parse("mg/dL"))
                .isFinite)
    }

    @Test func aStoredDimensionDecidesCompatibility() throws {
        #expect(try HKUnit.parse("count/min").isCompatible(with: HKUnit.parse("Hz")))
        #expect(try !HKUnit.parse("count/min").isCompatible(with: HKUnit.parse("kg")))
        #expect(!HKUnit(from: "nonsense").isCompatible(with: HKUnit(from: "nonsense")))
    }
}
