public import Foundation

/// An amount in a unit, as HealthKit's `HKQuantity`: immutable, converted on demand.
///
/// `description` is Apple's: the number as `NSNumber` prints it, then the unit string
/// ("72 count/min", "81.25 kg"). healthd never interpolates a quantity into a log line or an
/// error text (it converts values with `value(in:)` only), so the value reaches text only where
/// an app prints it, as on Apple's platforms.
///
/// An `NSObject` with `NSSecureCoding`, as Apple's: the archive holds the unit's string and the
/// value as written. `@unchecked Sendable`: `NSObject` is not `Sendable` on Linux, so the
/// compiler cannot check a subclass; both stored properties are immutable `Sendable` values.
public final class HKQuantity: NSObject, NSSecureCoding, @unchecked Sendable {
    /// The unit the quantity was created with. Not part of HealthKit's API; it lets the wire
    /// and storage layers keep a value exactly as it was written.
    public let unit: HKUnit
    private let value: Double

    public init(unit: HKUnit, doubleValue: Double) {
        self.unit = unit
        self.value = doubleValue
        super.init()
    }

    /// HealthKit's accessor. HealthKit raises an exception for an incompatible unit; this
    /// returns NaN instead (and for an invalid unit on either side), so a bad unit from a peer
    /// can never take a process down. Use `value(in:)` to learn why a conversion failed.
    public func doubleValue(for unit: HKUnit) -> Double {
        (try? value(in: unit)) ?? .nan
    }

    /// The value in `unit`, or `errorInvalidArgument` naming both units when they are
    /// incompatible or either is invalid.
    public func value(in unit: HKUnit) throws(HKError) -> Double {
        try self.unit.convert(value, to: unit)
    }

    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        self.unit.isCompatible(with: unit)
    }

    /// Orders by magnitude when the units are compatible (the other quantity is converted
    /// into this one's unit). HealthKit raises an exception for incompatible quantities; this
    /// orders them by `unitString` instead, so sorting a mixed collection is deterministic and
    /// never traps — check `is(compatibleWith:)` first when that distinction matters. NaN
    /// values compare as `.orderedSame` with everything.
    public func compare(_ other: HKQuantity) -> ComparisonResult {
        guard let otherValue = try? other.unit.convert(other.value, to: unit) else {
            if unit == other.unit { return Self.order(value, other.value) }
            return unit.unitString < other.unit.unitString ? .orderedAscending : .orderedDescending
        }
        return Self.order(value, otherValue)
    }

    private static func order(_ lhs: Double, _ rhs: Double) -> ComparisonResult {
        if lhs < rhs { return .orderedAscending }
        if lhs > rhs { return .orderedDescending }
        return .orderedSame
    }

    // MARK: Equality (NSObject's, so ==, Set and Dictionary use it too)

    /// Equal when written with the same unit and the same value: 1 km and 1000 m are not
    /// `==` (use `compare(_:)` for magnitudes), which keeps hashing exact.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKQuantity else { return false }
        return other.unit.content == unit.content && other.value == value
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(unit.content)
        hasher.combine(value)
        return hasher.finalize()
    }

    public override var description: String { "\(Self.numberText(value)) \(unit.unitString)" }

    /// A double as `NSNumber` describes it on Apple's platforms: whole numbers without a
    /// fraction ("72", not Swift's "72.0"), others in their shortest exact form ("81.25").
    private static func numberText(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let unitKey = "unit"
    private static let valueKey = "doubleValue"

    /// The unit as its string, not as a nested `HKUnit` object (see `NSCoder+ArchiveFields`).
    public func encode(with coder: NSCoder) {
        coder.encode(NSString(string: unit.unitString), forKey: Self.unitKey)
        coder.encode(NSNumber(value: value), forKey: Self.valueKey)
    }

    /// Fails (nil, as secure decoding does) when either field is missing or of the wrong kind,
    /// or the unit's text is not a unit (see `HKUnit.init?(coder:)`).
    public required convenience init?(coder: NSCoder) {
        guard let text = coder.decodeRequiredString(forKey: Self.unitKey),
              let unit = try? UnitCache.unit(text),
              let value = coder.decodeRequiredNumber(forKey: Self.valueKey) else { return nil }
        self.init(unit: unit, doubleValue: value.doubleValue)
    }
}
