public import Foundation

/// A unit of measure, as HealthKit's `HKUnit`: parsed from HealthKit's unit strings, combined
/// with `unitMultiplied(by:)` and friends, and converted through `HKQuantity`.
///
/// **Invalid units.** `HKUnit(from:)` keeps HealthKit's non-throwing signature but never
/// traps: a string that does not parse gives a unit with `isValid == false` whose
/// `validationError` says what is wrong. Such a unit is compatible with nothing (not even
/// itself), every conversion to or from it fails with that error (`HKQuantity.value(in:)`
/// throws it, `doubleValue(for:)` returns NaN), and combining it with another unit gives
/// another invalid unit. Its `unitString` is the text it was made from. Use
/// `HKUnit.parse(_:)` to get the error thrown instead.
///
/// **Equality** is structural: "kg*m/s^2", "m·kg/s^2" and "kg.m.s^-2" are the same unit,
/// and print the same canonical `unitString` ("kg·m/s^2"). "kg" and "g" are different
/// (compatible) units. Invalid units are equal when made from the same text. `==`, `isEqual(_:)`,
/// `hash` and `Set` agree (the `NSObject` rules).
///
/// **Archiving.** An `NSObject` with `NSSecureCoding`, as Apple's: the archive holds the
/// `unitString`, and decoding parses it (below).
///
/// `@unchecked Sendable`: `NSObject` is not `Sendable` on Linux, so the compiler cannot check a
/// subclass; every stored property is an immutable `let` of a `Sendable` value.
public final class HKUnit: NSObject, NSSecureCoding, @unchecked Sendable {
    enum Content: Hashable, Sendable {
        case valid(UnitExpression)
        case invalid(text: String, error: HKError)
    }

    let content: Content

    /// The canonical spelling ("count/min", "mg/dL", "mL/min·kg", "degC", "%"); for an
    /// invalid unit, the text it was made from.
    public let unitString: String
    /// The dimension of a valid unit, computed once: compatibility checks and conversions ask
    /// for it on every sample.
    let dimension: UnitDimension?

    init(_ expression: UnitExpression) {
        content = .valid(expression)
        unitString = expression.unitString
        dimension = expression.dimension
        super.init()
    }

    init(invalidText text: String, error: HKError) {
        content = .invalid(text: text, error: error)
        unitString = text
        dimension = nil
        super.init()
    }

    /// HealthKit's initializer. Never traps; see "Invalid units" above. A valid unit comes from
    /// `UnitCache` (parsed once per process), so two units made from the same text may be one
    /// instance; units compare structurally, so nothing can tell.
    public convenience init(from string: String) {
        do {
            let parsed = try UnitCache.unit(string)
            self.init(sharing: parsed)
        } catch {
            self.init(invalidText: string, error: error)
        }
    }

    /// A copy of a parsed unit (a convenience initializer cannot return the cached instance).
    private init(sharing unit: HKUnit) {
        content = unit.content
        unitString = unit.unitString
        dimension = unit.dimension
        super.init()
    }

    /// Strict parsing: throws `errorInvalidArgument` saying what is wrong and where. Parsed
    /// once per process per string (`UnitCache`).
    public static func parse(_ string: String) throws(HKError) -> HKUnit {
        try UnitCache.unit(string)
    }

    public var isValid: Bool {
        if case .valid = content { return true }
        return false
    }

    /// Why this unit is invalid; nil for a valid unit.
    public var validationError: HKError? {
        if case .invalid(_, let error) = content { return error }
        return nil
    }

    public override var description: String { unitString }

    // MARK: Equality (NSObject's, so ==, Set and Dictionary use it too)

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKUnit else { return false }
        return other === self || other.content == content
    }

    public override var hash: Int { content.hashValue }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let unitStringKey = "unitString"

    public func encode(with coder: NSCoder) {
        coder.encode(NSString(string: unitString), forKey: Self.unitStringKey)
    }

    /// Parses the archived `unitString`, so the result `==` the unit archived. Fails (nil, as
    /// secure decoding does) when the key is missing or not a string, and when the text is not a
    /// unit: Apple has no invalid units to archive, so such text can only be a tampered archive
    /// (an invalid unit made here archives its text and decodes as nothing).
    public required convenience init?(coder: NSCoder) {
        guard let text = coder.decodeRequiredString(forKey: Self.unitStringKey),
              let parsed = try? UnitCache.unit(text) else { return nil }
        self.init(sharing: parsed)
    }

    /// True when both units are valid and measure the same dimension, so values convert
    /// between them ("count/min" and "Hz", "mg/dL" and "mmol<180.15588>/L", "degF" and "K").
    public func isCompatible(with other: HKUnit) -> Bool {
        guard let mine = dimension, let theirs = other.dimension else { return false }
        return mine == theirs
    }
}
