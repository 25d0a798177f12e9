import Testing
@testable import HealthModel

/// A short deterministic run of what `Fuzz/unit` does (Fuzz/README.md), on generated inputs
/// aimed at the unit parser's arithmetic and recursion: nested powers, long products, huge and
/// negative exponents, metric prefixes, invalid UTF-8 and NUL. The oracle is the fuzz target's:
/// no trap (a trap ends this test process), and each input is either a valid unit whose canonical
/// spelling parses back to it, or an `errorInvalidArgument` saying what is wrong. Session 21:
/// `((count^999)^999)…` trapped healthd before the parser bounded exponents while parsing.
@Suite(.timeLimit(.minutes(10))) struct UnitFuzzReplayTests {
    /// SplitMix64: a fixed seed gives the same inputs on every run and machine.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
    }

    static let atoms = ["m", "g", "s", "count", "min", "hr", "L", "mol<180.15588>", "K", "degC", "%", "J", "cal", "kcal",
                        "Pa", "mmHg", "dBASPL", "Hz", "V", "S", "W", "IU", "rad", "in", "ft", "lb", "oz", "()", "foo", "mcg"]
    static let prefixes = ["", "", "", "k", "m", "mc", "µ", "n", "p", "f", "da", "d", "c", "M", "G", "T", "x"]
    static let exponents = ["1", "2", "-1", "-2", "9", "24", "25", "99", "-99", "999", "-999", "1000", "0", "00", "-0", "--1", "", "-"]

    static func power(_ generator: inout Generator, depth: Int) -> String {
        var text: String
        if depth > 0, generator.below(3) == 0 {
            text = "(" + product(&generator, depth: depth - 1) + ")"
        } else {
            text = generator.pick(prefixes) + generator.pick(atoms)
        }
        if generator.below(2) == 0 { text += "^" + generator.pick(exponents) }
        return text
    }

    static func product(_ generator: inout Generator, depth: Int) -> String {
        var text = power(&generator, depth: depth)
        for _ in 0..<generator.below(4) { text += generator.pick(["*", ".", "·", "/"]) + power(&generator, depth: depth) }
        return text
    }

    /// One generated input, as bytes (decoded leniently, as healthd decodes a wire string).
    /// Three-digit exponents: six or seven levels of them pass Int's limits.
    static let largeExponents = ["999", "-999", "998", "-997", "500", "-123"]

    /// `levels` nested powers of `atom` with large exponents, `inner` on the atom itself.
    static func nestedLarge(_ generator: inout Generator, levels: Int, inner: String) -> String {
        var text = generator.pick(atoms) + "^" + inner
        for _ in 0..<levels { text = "(" + text + ")^" + generator.pick(largeExponents) }
        return text
    }

    static func input(_ generator: inout Generator) -> [UInt8] {
        switch generator.below(9) {
        case 0:  // nested powers: each level multiplies the exponent
            let levels = 1 + generator.below(10)
            var text = generator.pick(atoms)
            for _ in 0..<levels { text = "(" + text + ")^" + generator.pick(exponents) }
            return Array(text.utf8)
        case 7:  // nested powers whose product passes Int's limits (session 21's first string)
            return Array(nestedLarge(&generator, levels: 5 + generator.below(3), inner: generator.pick(largeExponents)).utf8)
        case 8:  // factors that each fit an Int but whose sum does not (session 21's second string)
            let atom = generator.pick(["count", "m", "s"])
            let factor = String(repeating: "(", count: 6) + atom + "^" + String(1 + generator.below(9)) + ")^999"
                + String(repeating: ")^999", count: 5)
            return Array(Array(repeating: factor, count: 2 + generator.below(2)).joined(separator: "*").utf8)
        case 1:  // long products of powered factors, up to and past the length bound
            return Array((0..<(1 + generator.below(60))).map { _ in "m^" + generator.pick(exponents) }.joined(separator: "*").utf8)
        case 2:  // huge, negative and malformed exponents
            return Array((generator.pick(atoms) + "^" + generator.pick(["-", ""]) + String(generator.next())).utf8)
        case 3:  // deep and unbalanced nesting
            let open = generator.below(300), close = generator.below(300)
            return Array((String(repeating: "(", count: open) + generator.pick(atoms) + String(repeating: ")^2", count: close)).utf8)
        case 4:  // invalid UTF-8 and NUL spliced into a valid unit
            var bytes = Array(product(&generator, depth: 3).utf8)
            let junk: [[UInt8]] = [[0], [0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80], [0xC2, 0xB7]]
            bytes.insert(contentsOf: generator.pick(junk), at: generator.below(bytes.count + 1))
            return bytes
        case 5:  // random bytes from the grammar's alphabet
            let alphabet = Array("()^-*./·<>0123456789mgskL%µ".utf8)
            return (0..<generator.below(80)).map { _ in generator.pick(alphabet) }
        default:  // well-formed compound units
            return Array(product(&generator, depth: 8).utf8)
        }
    }

    static let inputCount = 20_000

    @Test func generatedUnitStringsGiveAUnitOrATypedErrorAndNeverTrap() throws {
        var generator = Generator(state: 21)
        var valid = 0
        var refusedForExponent = 0
        for _ in 0..<Self.inputCount {
            let bytes = Self.input(&generator)
            let text = String(decoding: bytes, as: UTF8.self)
            let unit: HKUnit
            do {
                unit = try HKUnit.parse(text)
            } catch {
                #expect(error.code == .errorInvalidArgument, "\(text): \(error)")
                if error.message.contains("exponent") { refusedForExponent += 1 }
                #expect(!HKUnit(from: text).isValid)
                continue
            }
            valid += 1
            let again = try HKUnit.parse(unit.unitString)
            #expect(again == unit, "\(text) prints as \(unit.unitString), which parses differently")
            _ = try? HKQuantity(unit: unit, doubleValue: 1.5).value(in: again)
            _ = try? HKQuantity(unit: unit, doubleValue: -1e308).value(in: HKUnit.parse("count/min"))
            for power in [2, -3, 24, 999, Int.max, Int.min] { _ = unit.unitRaised(toPower: power).unitMultiplied(by: unit) }
        }
        // The generator reaches both outcomes and the exponent checks, or it tests nothing.
        #expect(valid > Self.inputCount / 50, "\(valid) valid")
        #expect(refusedForExponent > Self.inputCount / 50, "\(refusedForExponent) refused for an exponent")
    }
}
