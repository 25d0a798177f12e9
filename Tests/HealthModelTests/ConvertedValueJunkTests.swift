import Foundation
import Testing

@testable import HealthModel

/// Values valid alone but junk once computed: a stored value read in another unit, a sum or an
/// average of many extreme samples. Generated, not hand-picked: every unit atom (each base unit
/// with each prefix it takes) and, for every pair of atoms of one base, the most extreme
/// compound of the same dimension the grammar's exponent cap allows (`a^24/b^23`: a length
/// 10^564 times a metre for Tm^24/pm^23). Session 16: such units parsed, so the largest allowed
/// distance read as +inf, and a heart rate of 0 (or a negative one) was stored through a
/// per-second unit tiny enough that the type's range did not convert to it.
@Suite(.timeLimit(.minutes(10))) struct ConvertedValueJunkTests {
    /// Every atom the grammar accepts, spelled as an app would write it.
    static let atoms: [(base: BaseUnit, text: String)] = BaseUnit.all.flatMap { base -> [(BaseUnit, String)] in
        let molar = base.requiresMolarMass ? "<180.15588>" : ""
        let prefixes = base.acceptsPrefix ? HKMetricPrefix.allCases : [.none]
        return prefixes.map { (base, $0.symbol + base.symbol + molar) }
    }

    /// The atoms, and for each ordered pair of distinct linear atoms of one base the compound
    /// `a^24/b^23`, of the base's own dimension and as far from it in scale as the grammar allows.
    static let unitStrings: [String] = {
        var units = atoms.map(\.text)
        for a in atoms where a.base.scale.isLinear {
            for b in atoms where b.base == a.base && b.text != a.text {
                units.append("\(a.text)^24/\(b.text)^23")
            }
        }
        units += ["mol<1e300>", "mol<1e-300>", "mmol<1e300>/L", "count/ps^24·Ts^-23"]
        return units
    }()

    /// The units that parse.
    static let accepted: [(text: String, unit: HKUnit)] = unitStrings.compactMap { text in
        (try? HKUnit.parse(text)).map { (text, $0) }
    }

    static func quantityType(_ identifier: HKQuantityTypeIdentifier) -> HKQuantityType? {
        HKObjectType.type(forIdentifier: identifier.rawValue) as? HKQuantityType
    }

    @Test func everyPlainAtomParses() {
        for atom in Self.atoms {
            #expect((try? HKUnit.parse(atom.text)) != nil, "\(atom.text)")
        }
    }

    /// The rule behind all the others: a unit is within 10^±60 of its dimension's base unit.
    @Test func aUnitFarFromItsDimensionsBaseUnitIsRefusedNamingTheRule() {
        for text in ["Tm^24/pm^23", "pm^24/Tm^23", "mol<1e300>", "count/ps^24·Ts^-23"] {
            #expect(throws: HKError.self, "\(text)") { try HKUnit.parse(text) }
            let lenient = HKUnit(from: text)
            #expect(lenient.validationError?.message.contains("10^±\(UnitExpression.maximumScaleExponent)") == true,
                    "\(text): \(lenient.validationError?.message ?? "accepted")")
        }
    }

    /// Every type's largest and smallest allowed value, in every unit that parses and fits the
    /// type, is a finite number: what `doubleValue(for:)` hands an app for any stored sample.
    @Test func everyStoredExtremeIsFiniteInEveryUnit() throws {
        var checked = 0
        for row in QuantityValueRanges.all {
            guard let type = Self.quantityType(row.identifier) else { continue }
            let own = try HKUnit.parse(row.unitString)
            for (text, unit) in Self.accepted where type.is(compatibleWith: unit) {
                for bound in [row.bounds.lowerBound, row.bounds.upperBound] {
                    let converted = try HKQuantity(unit: own, doubleValue: bound).value(in: unit)
                    #expect(converted.isFinite, "\(row.identifier.rawValue): \(bound) \(row.unitString) is \(converted) \(text)")
                    checked += 1
                }
            }
        }
        #expect(checked > 1_000)
    }

    /// A metadata quantity the validator accepts is finite in every unit of its dimension.
    @Test(arguments: ["m", "km", "mi", "kcal", "J", "L", "count/min", "mmHg", "g", "s"])
    func everyAcceptedMetadataQuantityIsFiniteInEveryUnit(_ written: String) throws {
        let unit = try HKUnit.parse(written)
        let step = try #require(HKObjectType.type(forIdentifier: HKQuantityTypeIdentifier.stepCount.rawValue) as? HKQuantityType)
        for magnitude in [1e308, 1e300, 1e250, 1e241, 1e240, 1e200, 1e12] {
            for value in [magnitude, -magnitude] {
                let metadata: [String: MetadataValue] = ["org.test.q": .quantity(value: value, unit: written)]
                let sample = SampleRecord(uuid: UUID(), typeIdentifier: step.identifier, startDate: Date(timeIntervalSince1970: 1_700_000_000),
                                          endDate: Date(timeIntervalSince1970: 1_700_000_060), value: .quantity(1, unit: "count"),
                                          metadata: metadata)
                guard (try? SampleValidator.canonicalized(sample)) != nil else { continue }
                for (text, other) in Self.accepted where other.isCompatible(with: unit) {
                    let converted: Double
                    do {
                        converted = try HKQuantity(unit: unit, doubleValue: value).value(in: other)
                    } catch {
                        // No number at all, never a junk one: a pressure of 0 or below has no
                        // decibel level, and the conversion says so.
                        #expect(error.message.contains("decibel"), "\(value) \(written) in \(text): \(error)")
                        continue
                    }
                    #expect(converted.isFinite, "metadata \(value) \(written) accepted, but it is \(converted) \(text)")
                }
            }
        }
    }

    /// A value the type's range refuses is refused in every unit an app may write it in. Values
    /// are taken in the app's unit (0, ±1, ±1e-300, ±1e300): before, in a unit the range's
    /// bounds overflowed in, the check fell back to the general ceiling, so a heart rate of 0 —
    /// or a negative one — was stored (0 in count/ps^24·Ts^-23).
    @Test func aValueOutsideTheRangeIsRefusedInEveryUnit() throws {
        var checked = 0
        for row in QuantityValueRanges.all {
            guard let type = Self.quantityType(row.identifier) else { continue }
            let own = try HKUnit.parse(row.unitString)
            for (text, unit) in Self.accepted where type.is(compatibleWith: unit) {
                for value in [0, 1, -1, 1e-300, -1e-300, 1e300, -1e300] {
                    guard let inOwn = try? HKQuantity(unit: unit, doubleValue: value).value(in: own), inOwn.isFinite,
                          !row.bounds.contains(inOwn), !QuantityValueCheck.atBound(inOwn, row.bounds) else { continue }
                    #expect(throws: HKError.self, "\(row.identifier.rawValue): \(value) \(text) is \(inOwn) \(row.unitString)") {
                        _ = try QuantityValueCheck.canonical(value, unit: unit, unitString: text, of: type)
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 1_000)
    }
}
