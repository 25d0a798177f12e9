public import Foundation
import HealthWire

/// The statistics of one time interval, as HealthKit's `HKStatistics`: merged across sources
/// by the user's source priority, and per source when the query asked for
/// `.separateBySource`. Quantities are in the type's canonical unit; convert with
/// `doubleValue(for:)`.
///
/// An `NSObject` with `NSSecureCoding`, as Apple's, so an app can keep a result (a cached
/// chart, a widget's last value): the archive holds the type's identifier, whether the
/// statistics are per source, and the interval's values in the wire's own form, read back by the
/// same bounded parser that reads healthd's answers (as `ArchivedSample` does for samples). An
/// unknown or non-quantity type, malformed bytes, or other than exactly one interval decode as
/// nil. Equality stays NSObject's identity (Apple documents none).
public final class HKStatistics: NSObject, NSSecureCoding, @unchecked Sendable {
    // @unchecked: every stored property is immutable and Sendable except HKQuantityType, a
    // registry class whose properties are immutable.
    public let quantityType: HKQuantityType
    public let startDate: Date
    public let endDate: Date
    /// The sources with data in the interval, in priority order; nil unless the query asked for
    /// `.separateBySource`.
    public let sources: [HKSource]?

    private let merged: StatisticsValues
    private let bySource: [String: StatisticsValues]
    /// What the statistics were made from, kept for the archive.
    let result: StatisticsResult
    private let separateBySource: Bool

    init(type: HKQuantityType, result: StatisticsResult, separateBySource: Bool) {
        quantityType = type
        self.result = result
        self.separateBySource = separateBySource
        startDate = Date(microsecondsSince1970: result.span.start)
        endDate = Date(microsecondsSince1970: result.span.end)
        merged = result.merged
        sources = separateBySource
            ? result.bySource.map { HKSource(name: $0.source.name, bundleIdentifier: $0.source.bundleIdentifier) }
            : nil
        bySource = Dictionary(result.bySource.map { ($0.source.bundleIdentifier, $0.values) }, uniquingKeysWith: { first, _ in first })
        super.init()
    }

    /// An interval without data (a collection's `enumerateStatistics` yields these too).
    convenience init(type: HKQuantityType, empty span: TimeSpan, separateBySource: Bool) {
        self.init(type: type, result: StatisticsResult(span: span, merged: StatisticsValues()),
                  separateBySource: separateBySource)
    }

    public func sumQuantity() -> HKQuantity? { quantity(merged.sum) }
    public func sumQuantity(for source: HKSource) -> HKQuantity? { quantity(values(for: source)?.sum) }
    public func averageQuantity() -> HKQuantity? { quantity(merged.average) }
    public func averageQuantity(for source: HKSource) -> HKQuantity? { quantity(values(for: source)?.average) }
    public func minimumQuantity() -> HKQuantity? { quantity(merged.minimum) }
    public func minimumQuantity(for source: HKSource) -> HKQuantity? { quantity(values(for: source)?.minimum) }
    public func maximumQuantity() -> HKQuantity? { quantity(merged.maximum) }
    public func maximumQuantity(for source: HKSource) -> HKQuantity? { quantity(values(for: source)?.maximum) }
    public func mostRecentQuantity() -> HKQuantity? { quantity(merged.mostRecent?.value) }
    public func mostRecentQuantity(for source: HKSource) -> HKQuantity? { quantity(values(for: source)?.mostRecent?.value) }
    public func mostRecentQuantityDateInterval() -> DateInterval? { Self.interval(merged.mostRecent) }
    public func mostRecentQuantityDateInterval(for source: HKSource) -> DateInterval? { Self.interval(values(for: source)?.mostRecent) }

    /// The time the samples cover, each instant once (`.duration`), in seconds.
    public func duration() -> HKQuantity? { merged.duration.map { HKQuantity(unit: .second(), doubleValue: $0) } }
    public func duration(for source: HKSource) -> HKQuantity? {
        values(for: source)?.duration.map { HKQuantity(unit: .second(), doubleValue: $0) }
    }

    private func values(for source: HKSource) -> StatisticsValues? {
        sources == nil ? nil : bySource[source.bundleIdentifier]
    }

    private func quantity(_ value: Double?) -> HKQuantity? {
        value.map { HKQuantity(unit: quantityType.canonicalUnit, doubleValue: $0) }
    }

    private static func interval(_ mostRecent: StatisticsValues.MostRecent?) -> DateInterval? {
        mostRecent.map { DateInterval(start: Date(microsecondsSince1970: $0.span.start), end: Date(microsecondsSince1970: $0.span.end)) }
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }
    private static let typeKey = "quantityType"
    private static let separateKey = "separateBySource"
    private static let valuesKey = "statistics"

    public func encode(with coder: NSCoder) {
        coder.encode(NSString(string: quantityType.identifier), forKey: Self.typeKey)
        coder.encode(NSNumber(value: separateBySource), forKey: Self.separateKey)
        coder.encode(Data(StatisticsBatch([result]).wireBytes()) as NSData, forKey: Self.valuesKey)
    }

    public required convenience init?(coder: NSCoder) {
        guard let type = coder.decodeRequiredString(forKey: Self.typeKey)
                .flatMap({ HKObjectType.type(forIdentifier: $0) as? HKQuantityType }),
              let separate = coder.decodeRequiredNumber(forKey: Self.separateKey)?.boolValue,
              let bytes = coder.decodeRequiredData(forKey: Self.valuesKey),
              let results = try? StatisticsBatch(wire: Array(bytes)).statistics, results.count == 1 else { return nil }
        self.init(type: type, result: results[0], separateBySource: separate)
    }
}
