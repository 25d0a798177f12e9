public import Foundation

/// A type whose objects are samples with a start and an end date, as HealthKit's
/// `HKSampleType`.
///
/// Duration limits: HealthKit restricts the duration of some sample types, but the
/// reference tables record no such limit for any type, so no registered type is restricted:
/// `isMinimumDurationRestricted` and `isMaximumDurationRestricted` are false. Where HealthKit
/// raises an exception on reading the allowed duration of an unrestricted type, this returns
/// 0 for the minimum and `.infinity` for the maximum, so sample validation can always apply
/// `minimumAllowedDuration...maximumAllowedDuration` and a limit added later takes effect
/// everywhere.
public class HKSampleType: HKObjectType, @unchecked Sendable {
    private let durationLimits: ClosedRange<TimeInterval>?

    init(identifier: String, durationLimits: ClosedRange<TimeInterval>? = nil) {
        self.durationLimits = durationLimits
        super.init(identifier: identifier)
    }

    /// Takes the registered type's duration limits; see `HKObjectType.init?(coder:)`.
    public required init?(coder: NSCoder) {
        guard let registered = Self.registered(decodedFrom: coder, as: Self.self) as? HKSampleType else { return nil }
        durationLimits = registered.durationLimits
        super.init(identifier: registered.identifier)
    }

    public var isMinimumDurationRestricted: Bool { (durationLimits?.lowerBound ?? 0) > 0 }
    public var isMaximumDurationRestricted: Bool { (durationLimits?.upperBound ?? .infinity) < .infinity }
    public var minimumAllowedDuration: TimeInterval { durationLimits?.lowerBound ?? 0 }
    public var maximumAllowedDuration: TimeInterval { durationLimits?.upperBound ?? .infinity }

    /// Apple (iOS 15): whether `HKHealthStore.recalibrateEstimates(sampleType:date:completion:)`
    /// accepts the type. HealthKit answers true for one type, the six-minute walk test
    /// distance that Apple's recalibration entitlement documentation names.
    public var allowsRecalibrationForEstimates: Bool {
        identifier == HKQuantityTypeIdentifier.sixMinuteWalkTestDistance.rawValue
    }
}
