public import Foundation

// HKSamplePredicate's factories for the sample kinds whose classes have no other descriptor
// home (iOS 15.4 / iOS 18, developer.apple.com/documentation/healthkit/hksamplepredicate): each
// names the kind's one sample type, so `HKSampleQueryDescriptor` and
// `HKAnchoredObjectQueryDescriptor` return that class.

extension HKSamplePredicate where Sample == HKElectrocardiogram {
    /// HealthKit's `HKSamplePredicate.electrocardiogram(_:)`.
    public static func electrocardiogram(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKElectrocardiogram> {
        HKSamplePredicate(sampleType: HKObjectType.electrocardiogramType(), nsPredicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKHeartbeatSeriesSample {
    /// HealthKit's `HKSamplePredicate.heartbeatSeries(_:)`.
    public static func heartbeatSeries(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKHeartbeatSeriesSample> {
        HKSamplePredicate(sampleType: HKSeriesType.heartbeat(), nsPredicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKStateOfMind {
    /// HealthKit's `HKSamplePredicate.stateOfMind(_:)` (iOS 18).
    public static func stateOfMind(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKStateOfMind> {
        HKSamplePredicate(sampleType: HKObjectType.stateOfMindType(), nsPredicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKWorkoutRoute {
    /// HealthKit's `HKSamplePredicate.workoutRoute(_:)` (iOS 15.4,
    /// developer.apple.com/documentation/healthkit/hksamplepredicate/workoutroute(_:)): "a sample
    /// predicate that matches samples containing workout route data".
    public static func workoutRoute(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKWorkoutRoute> {
        HKSamplePredicate(sampleType: HKSeriesType.workoutRoute(), nsPredicate: predicate)
    }
}
