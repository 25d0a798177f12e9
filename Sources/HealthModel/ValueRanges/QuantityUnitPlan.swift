import Synchronization

/// Everything checking and converting a value of one quantity type in one unit needs, worked out
/// once per (type, unit string) and kept (`QuantityUnitPlan.cached`): the parsed unit, how a
/// value converts to the type's canonical unit, and the type's range in both units.
///
/// Before, every sample of a save parsed-or-looked-up its unit, compared unit expressions and
/// converted five numbers (the value, and the range's two bounds into the app's unit and into the
/// canonical unit) — the largest part of `SampleValidator` in the SDK and again in healthd
/// (Benchmarks/README.md, "Batched saves"). The results are the same numbers: a linear
/// conversion multiplies by the ratio `HKUnit.convert` would compute, and the bounds are the ones
/// `QuantityValueRange.bounds(in:)` returns.
struct QuantityUnitPlan: Sendable {
    enum Conversion: Sendable {
        /// Linear units: `value * ratio`, the product `HKUnit.convert` computes (1 for the
        /// canonical unit itself, where `convert` returns the value unchanged: the same number).
        case ratio(Double)
        /// Affine temperatures and dBASPL: through `HKUnit.convert` every time.
        case general
    }

    let unit: HKUnit
    let conversion: Conversion
    /// The range in `unit` and in the canonical unit; nil when the range's unit does not convert.
    let boundsInUnit: ClosedRange<Double>?
    let storedBounds: ClosedRange<Double>?

    /// Throws what `SampleValidator` always said: the unit's parse error, or that it does not fit
    /// the type.
    init(_ type: HKQuantityType, unit: HKUnit, unitString: String) throws(HKError) {
        guard type.is(compatibleWith: unit) else {
            throw HKError(.errorInvalidArgument,
                          "unit \(unitString) is not compatible with \(type.identifier) (expected a unit like \(type.canonicalUnit.unitString))")
        }
        self.unit = unit
        conversion = unit.linearRatio(to: type.canonicalUnit).map(Conversion.ratio) ?? .general
        let range = QuantityValueRanges.range(for: HKQuantityTypeIdentifier(rawValue: type.identifier))
        boundsInUnit = range?.bounds(in: unit)
        storedBounds = range?.bounds(in: type.canonicalUnit)
    }

    /// `value` in the type's canonical unit.
    func canonical(_ value: Double, of type: HKQuantityType) throws(HKError) -> Double {
        switch conversion {
        case let .ratio(ratio): value * ratio
        case .general: try HKQuantity(unit: unit, doubleValue: value).value(in: type.canonicalUnit)
        }
    }

    // MARK: - The cache

    /// Bounded like `UnitCache` (unit strings come from untrusted apps): only plans that were
    /// made (a failing unit adds nothing), only short unit strings, and it starts over when full.
    static let capacity = 512
    private struct Key: Hashable {
        let type: String
        let unit: String
    }

    private static let plans = Mutex<[Key: QuantityUnitPlan]>([:])

    /// The plan for `type` and `unitString`, made on first use.
    static func cached(_ type: HKQuantityType, unitString: String) throws(HKError) -> QuantityUnitPlan {
        let key = Key(type: type.identifier, unit: unitString)
        if let known = plans.withLock({ $0[key] }) { return known }
        let plan = try QuantityUnitPlan(type, unit: HKUnit.parse(unitString), unitString: unitString)
        if unitString.utf8.count <= UnitCache.maximumKeyLength {
            plans.withLock { plans in
                if plans.count >= capacity { plans.removeAll(keepingCapacity: true) }
                plans[key] = plan
            }
        }
        return plan
    }

    /// How many plans are cached (tests check the bound).
    static var count: Int { plans.withLock { $0.count } }

    /// Whether a plan for `type` and `unitString` is cached (tests ask about their own keys:
    /// other tests make plans in parallel, so the total count says nothing about one test's).
    static func contains(_ type: HKQuantityType, unitString: String) -> Bool {
        plans.withLock { $0[Key(type: type.identifier, unit: unitString)] != nil }
    }
}
