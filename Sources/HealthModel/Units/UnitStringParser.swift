/// Reads HealthKit unit strings. Unit strings arrive from untrusted apps, so the parser
/// bounds length and nesting, never traps, and says exactly what is wrong and where.
///
/// Grammar (whitespace is not allowed anywhere):
///
///     quotient := product [ "/" product ]          one "/" per level: "mL/min·kg" is mL/(min·kg)
///     product  := power { ("*" | "." | "·") power }
///     power    := primary [ "^" ["-"] digits ]
///     primary  := "(" quotient ")" | "()" | atom    "()" is the null unit, the empty product
///     atom     := [prefix] symbol [ "<" molar-mass ">" ]
///
/// `prefix` is a metric prefix ("mc" micro, "da" deca, …) and only precedes units that take
/// one; a whole symbol wins over a prefixed reading ("min" is minutes, "mmHg" is not milli-mHg).
/// `molar-mass` (g/mol, positive) is required after "mol" and allowed nowhere else.
struct UnitStringParser {
    static let maximumLength = 256
    static let maximumNesting = 8

    static func parse(_ text: String) throws(HKError) -> UnitExpression {
        guard !text.isEmpty else { throw HKError(.errorInvalidArgument, "the unit string is empty") }
        guard text.unicodeScalars.count <= maximumLength else {
            throw HKError(.errorInvalidArgument, "unit string is longer than \(maximumLength) characters")
        }
        var parser = UnitStringParser(text: text)
        let written = try parser.parseQuotient(depth: 0)
        if let unexpected = parser.peek {
            throw parser.failure("unexpected '\(unexpected)'", at: parser.position)
        }
        do {
            return try UnitExpression(written)
        } catch {
            throw HKError(.errorInvalidArgument, "invalid unit \(quoted(text)): \(error.message)")
        }
    }

    private let text: String
    private let scalars: [Unicode.Scalar]
    private var position = 0

    private init(text: String) {
        self.text = text
        self.scalars = Array(text.unicodeScalars)
    }

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private mutating func parseQuotient(depth: Int) throws(HKError) -> [UnitExpression.Factor] {
        var factors = try parseProduct(depth: depth)
        if peek == "/" {
            position += 1
            factors += try parseProduct(depth: depth).map { .init(atom: $0.atom, exponent: -$0.exponent) }
            if peek == "/" {
                throw failure("a second '/' is ambiguous; put the denominator in parentheses, "
                              + "e.g. 'm/(s*s)' or 'm/s^2'", at: position)
            }
        }
        return factors
    }

    private mutating func parseProduct(depth: Int) throws(HKError) -> [UnitExpression.Factor] {
        var factors = try parsePower(depth: depth)
        while let next = peek, next == "*" || next == "." || next == "·" {
            position += 1
            factors += try parsePower(depth: depth)
        }
        return factors
    }

    /// Every exponent as written stays within this while parsing, before factors are summed:
    /// nested powers multiply ("((m^999)^999)^999" is 999^3), so an unbounded product
    /// overflows Int and traps (a crash of healthd from one app's query). Three digits is the
    /// most one "^" takes; the normalized unit is then held to
    /// `UnitExpression.maximumExponentMagnitude`.
    static let maximumWrittenExponent = 999

    private mutating func parsePower(depth: Int) throws(HKError) -> [UnitExpression.Factor] {
        let factors = try parsePrimary(depth: depth)
        guard peek == "^" else { return factors }
        let caret = position
        position += 1
        let exponent = try parseInteger()
        return try factors.map { factor throws(HKError) in
            let (product, overflow) = factor.exponent.multipliedReportingOverflow(by: exponent)
            guard !overflow, product.magnitude <= Self.maximumWrittenExponent else {
                throw failure("exponent is too large (|exponent| ≤ \(Self.maximumWrittenExponent) "
                              + "after nested powers)", at: caret)
            }
            return .init(atom: factor.atom, exponent: product)
        }
    }

    private mutating func parsePrimary(depth: Int) throws(HKError) -> [UnitExpression.Factor] {
        guard peek == "(" else { return [.init(atom: try parseAtom(), exponent: 1)] }
        guard depth < Self.maximumNesting else {
            throw failure("parentheses nest deeper than \(Self.maximumNesting) levels", at: position)
        }
        let opening = position
        position += 1
        // "()": HealthKit's null unit (what "m/m" prints as); no factor to contribute.
        if peek == ")" {
            position += 1
            return []
        }
        let inner = try parseQuotient(depth: depth + 1)
        guard peek == ")" else { throw failure("'(' is never closed", at: opening) }
        position += 1
        return inner
    }

    /// A signed integer of at most three digits (larger exponents are rejected anyway).
    private mutating func parseInteger() throws(HKError) -> Int {
        let start = position
        var negative = false
        if peek == "-" {
            negative = true
            position += 1
        }
        var magnitude = 0
        var digits = 0
        while let next = peek, ("0"..."9").contains(next) {
            let digit = Int(next.value - ("0" as Unicode.Scalar).value)
            guard digits < 3 else { throw failure("exponent is too large", at: start) }
            magnitude = magnitude * 10 + digit
            digits += 1
            position += 1
        }
        guard digits > 0 else { throw failure("expected an integer exponent after '^'", at: start) }
        return negative ? -magnitude : magnitude
    }

    private mutating func parseAtom() throws(HKError) -> UnitAtom {
        let start = position
        while let next = peek, next.isASCII, next.properties.isAlphabetic || next == "_" || next == "%" {
            position += 1
        }
        guard position > start else {
            if let unexpected = peek {
                throw failure("expected a unit but found '\(unexpected)'", at: start)
            }
            throw failure("expected a unit at the end", at: start)
        }
        let spelling = String(String.UnicodeScalarView(scalars[start..<position]))
        let (base, prefix) = try Self.resolve(spelling, failure: failure(_:at:), at: start)
        let molarMass = try parseMolarMass(after: base)
        return UnitAtom(base, prefix: prefix, molarMass: molarMass)
    }

    /// A whole symbol first, then a metric prefix followed by a unit that takes prefixes.
    private static func resolve(
        _ spelling: String, failure: (String, Int) -> HKError, at start: Int
    ) throws(HKError) -> (BaseUnit, HKMetricPrefix) {
        if let base = BaseUnit.named(spelling) { return (base, .none) }
        var unprefixable: BaseUnit?
        for prefix in HKMetricPrefix.longestSymbolFirst where spelling.hasPrefix(prefix.symbol) {
            guard let base = BaseUnit.named(String(spelling.dropFirst(prefix.symbol.count))) else { continue }
            if base.acceptsPrefix { return (base, prefix) }
            unprefixable = base
        }
        if let unprefixable {
            throw failure("'\(unprefixable.symbol)' does not take a metric prefix", start)
        }
        throw failure("unknown unit \(quoted(spelling))", start)
    }

    private mutating func parseMolarMass(after base: BaseUnit) throws(HKError) -> Double? {
        guard peek == "<" else {
            if base.requiresMolarMass {
                throw failure("a mole unit needs its molar mass in g/mol, e.g. 'mmol<180.15588>'", at: position)
            }
            return nil
        }
        guard base.requiresMolarMass else {
            throw failure("only mole units take a molar mass '<…>'", at: position)
        }
        let opening = position
        position += 1
        let start = position
        while let next = peek, next != ">" { position += 1 }
        guard peek == ">" else { throw failure("'<' is never closed", at: opening) }
        let digits = String(String.UnicodeScalarView(scalars[start..<position]))
        position += 1
        let decimalCharacters = Set("0123456789.eE+-".unicodeScalars)
        guard digits.unicodeScalars.allSatisfy(decimalCharacters.contains),
              let molarMass = Double(digits), molarMass.isFinite, molarMass > 0 else {
            throw failure("molar mass must be a positive number of g/mol", at: start)
        }
        return molarMass
    }

    private func failure(_ problem: String, at offset: Int) -> HKError {
        HKError(.errorInvalidArgument, "invalid unit \(UnitStringParser.quoted(text)): \(problem) (at character \(offset + 1))")
    }

    /// The unit string for an error message, shortened so a hostile peer cannot make our
    /// errors and logs arbitrarily large.
    static func quoted(_ text: String) -> String {
        let limit = 64
        return text.count <= limit ? "'\(text)'" : "'\(text.prefix(limit))…'"
    }
}
